import type { UploadProgress } from '../api/upload-leads';

/** Upload percentage while the file travels, then an indeterminate bar while the server works. */
export function UploadProgressBar({ progress }: { progress: UploadProgress }) {
  const uploading = progress.phase === 'uploading';
  return (
    <div className="upload-progress" role="status">
      {uploading ? (
        <progress className="progress" max={100} value={progress.percent} aria-label="Uploading the file" />
      ) : (
        <progress className="progress" aria-label="Processing the file" />
      )}
      <span className="upload-progress-text">
        {uploading
          ? `Uploading… ${progress.percent}%`
          : 'Processing… checking, de-duplicating and saving the leads'}
      </span>
    </div>
  );
}
