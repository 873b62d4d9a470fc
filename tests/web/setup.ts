import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach } from 'vitest';
import { clearSession } from '../../src/lib/session';

// Web tests run the real API in this process. vitest's jsdom environment replaces the global
// Uint8Array/ArrayBuffer with jsdom's (another realm), so bytes made by Node (Buffer, TextEncoder,
// crypto) fail `instanceof Uint8Array` checks, e.g. jose rejects the JWT secret and sign-in
// answers 500. Buffer still extends Node's own Uint8Array; put that realm's constructors back.
const NodeUint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
globalThis.Uint8Array = NodeUint8Array;
globalThis.ArrayBuffer = new NodeUint8Array(0).buffer.constructor as ArrayBufferConstructor;

// Node's fetch (undici) rejects jsdom's AbortSignal on Node 24 ("Expected signal to be an instance
// of AbortSignal", vitest-dev/vitest#8374); vitest 4's jsdom environment keeps Node's
// AbortController/AbortSignal/fetch and wraps Request, so ky's timeout works without a polyfill.

// jsdom has no matchMedia; react-hot-toast asks it about prefers-reduced-motion.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

afterEach(() => {
  cleanup();
  toast.remove();
  clearSession();
  sessionStorage.clear();
});
