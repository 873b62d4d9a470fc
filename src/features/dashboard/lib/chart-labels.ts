// Axis labels are SVG text, which never wraps by itself: the bar charts lay their labels out here
// from the room each bar has (issue 19: long campaign names were cut to a few letters).

/** Average width of one character of the 11 px axis font; a little generous, so text fits. */
export const CHAR_WIDTH = 6.5;
const ELLIPSIS = '…';

/**
 * `text` in at most `maxLines` lines of at most `maxChars` characters, broken between words where
 * it can; the last line ends in an ellipsis when the text did not fit.
 */
export function wrapLabel(text: string, maxChars: number, maxLines: number): string[] {
  const width = Math.max(2, Math.floor(maxChars));
  const lines: string[] = [];
  let rest = text.trim().replace(/\s+/g, ' ');
  while (rest !== '' && lines.length < maxLines - 1 && rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    // A word longer than the line is cut before its '@' (an email address) or where the line ends.
    const at = rest.lastIndexOf('@', width);
    const cut = space > 0 ? space : at > 0 ? at : width;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  // The last line takes as much as fits, words or not.
  if (rest !== '')
    lines.push(rest.length > width ? `${rest.slice(0, width - 1).trimEnd()}${ELLIPSIS}` : rest);
  return lines;
}

export interface TickLayout {
  /** Degrees; 0 draws the label level, wrapped onto up to three lines under its bar. */
  rotation: number;
  maxChars: number;
  maxLines: number;
  /** Every how many bars a label is drawn: 1 unless the bars are too thin for their labels. */
  every: number;
}

/** Level, wrapped labels where each bar is wide enough; slanted, and thinned out, where not. */
export function tickLayout(bandWidth: number, bottomMargin: number): TickLayout {
  if (bandWidth >= 56) return { rotation: 0, maxChars: (bandWidth - 4) / CHAR_WIDTH, maxLines: 3, every: 1 };
  // Slanted at -45°, labels 20 px apart are 14 px apart across their lines: room for 11 px text.
  const every = Math.max(1, Math.ceil(20 / bandWidth));
  return { rotation: -45, maxChars: (bottomMargin - 10) / Math.SQRT1_2 / CHAR_WIDTH, maxLines: 1, every };
}
