/** The phone board's actions at the bottom of the screen, within thumb reach (issue 18). */
export function PhoneBar({
  firstColumn,
  onAddLead,
}: {
  firstColumn: string;
  onAddLead: (initialStatus: string | null) => void;
}) {
  return (
    <div className="board-phone-bar">
      <button type="button" className="button button-primary" onClick={() => onAddLead(null)}>
        + Add Lead
      </button>
      <button type="button" className="button button-secondary" onClick={() => onAddLead(firstColumn)}>
        Add to {firstColumn}
      </button>
    </div>
  );
}
