import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  dismissPostCall,
  POST_CALL_WINDOW_MS,
  rememberContact,
  usePostCallPrompt,
} from '../../../../src/features/reminders/lib/post-call';

// Issue 15: after Call or WhatsApp, coming back to the app prompts for the call's outcome, unless
// it is more than 30 minutes later or the prompt was dismissed for that lead today.

function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

function watch() {
  const prompted: number[] = [];
  renderHook(() => usePostCallPrompt((leadId) => prompted.push(leadId)));
  return prompted;
}

afterEach(() => {
  vi.restoreAllMocks();
  setVisibility('visible');
  sessionStorage.clear();
  localStorage.clear();
});

describe('the post-call prompt', () => {
  it('prompts once on coming back after the dialer took the screen', () => {
    const prompted = watch();
    rememberContact(7);
    setVisibility('hidden');
    setVisibility('visible');
    setVisibility('hidden');
    setVisibility('visible');
    expect(prompted).toEqual([7]);
  });

  it('does not prompt when the page never went away (no dialer came up)', () => {
    const prompted = watch();
    rememberContact(7);
    setVisibility('visible');
    expect(prompted).toEqual([]);
  });

  it('does not prompt when coming back more than 30 minutes later', () => {
    const start = Date.now();
    const prompted = watch();
    rememberContact(7, start);
    setVisibility('hidden');
    vi.spyOn(Date, 'now').mockReturnValue(start + POST_CALL_WINDOW_MS + 1);
    setVisibility('visible');
    expect(prompted).toEqual([]);
  });

  it('prompts at 30 minutes, but not for a lead whose prompt was dismissed today', () => {
    const start = Date.now();
    const prompted = watch();
    dismissPostCall(8, start);
    for (const leadId of [8, 9]) {
      rememberContact(leadId, start);
      setVisibility('hidden');
      vi.spyOn(Date, 'now').mockReturnValue(start + POST_CALL_WINDOW_MS);
      setVisibility('visible');
      vi.restoreAllMocks();
    }
    expect(prompted).toEqual([9]);
  });

  it('prompts on load for a page the phone discarded while the dialer was in front', () => {
    const before = renderHook(() => usePostCallPrompt(() => undefined));
    rememberContact(7);
    setVisibility('hidden');
    before.unmount();
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    expect(watch()).toEqual([7]);
  });
});
