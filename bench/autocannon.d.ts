// The few parts of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    overallRate?: number;
    duration?: number;
  }
  export interface Result {
    latency: { p50: number; p99: number; average: number };
    requests: { total: number; average: number };
    errors: number;
    non2xx: number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
  }
  export interface Instance {
    stop(): void;
  }
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
