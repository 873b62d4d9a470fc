import type { NoteOptions, SavedNote } from './note-form';

/** Spec §2 "Last Saved summary": what was saved for this lead in this session. */
export function LastSaved({ note, options }: { note: SavedNote | null; options: NoteOptions }) {
  if (!note) return null;
  const call = options.callStatuses.find((o) => o.callStatusId === note.callStatusId)?.callStat;
  const client = options.clientStatuses.find((o) => o.clientStatusId === note.clientStatusId)?.clientStat;
  const location = options.locations.find((o) => o.locationId === note.locationId)?.locationName;
  const configuration = options.configurations.find(
    (o) => o.configurationId === note.configurationId,
  )?.configurationType;
  return (
    <section className="last-saved" aria-label="Last Saved">
      <h3 className="note-section-title">Last Saved</h3>
      <p className="last-saved-meta">{[call, client, location, configuration].filter(Boolean).join(' · ')}</p>
      <p>{note.notes}</p>
    </section>
  );
}
