/** The part of `autocannon` (no bundled types) that scripts/bench.mjs uses. */
declare module "autocannon" {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: { setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> }[];
  }
  interface Result {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  }
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): unknown;
  export default autocannon;
}
