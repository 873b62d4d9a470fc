// `npm run bench`: every benchmark, one after the other.
export {};

await import('./import');
