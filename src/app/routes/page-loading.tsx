export function PageLoading() {
  return (
    <div className="page-loading" role="status">
      Loading…
    </div>
  );
}
