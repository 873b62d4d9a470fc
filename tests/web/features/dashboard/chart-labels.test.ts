import { describe, expect, it } from 'vitest';
import { tickLayout, wrapLabel } from '../../../../src/features/dashboard/lib/chart-labels';

const campaign = 'Godrej Riverside Premium Towers Launch Weekend Mega Expo 2026';

describe('chart axis labels', () => {
  it('wraps a long campaign name between words and marks what did not fit', () => {
    expect(wrapLabel(campaign, 12, 3)).toEqual(['Godrej', 'Riverside', 'Premium Tow…']);
    expect(wrapLabel('Walk-in', 12, 3)).toEqual(['Walk-in']);
    // One slanted line: filled to its end, not stopped at the first space.
    expect(wrapLabel(campaign, 12, 1)).toEqual(['Godrej Rive…']);
  });

  it('breaks an email address before its @', () => {
    expect(wrapLabel('asha.fieldagent.pune@agency.test', 22, 3)).toEqual([
      'asha.fieldagent.pune',
      '@agency.test',
    ]);
  });

  it('slants and thins out the labels of bars too narrow for level text', () => {
    expect(tickLayout(80, 64)).toMatchObject({ rotation: 0, every: 1, maxLines: 3 });
    expect(tickLayout(30, 64)).toMatchObject({ rotation: -45, every: 1, maxLines: 1 });
    expect(tickLayout(17, 64).every).toBe(2);
    expect(tickLayout(5, 64).every).toBe(4);
  });
});
