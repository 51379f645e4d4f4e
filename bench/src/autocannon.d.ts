declare module 'autocannon' {
  namespace autocannon {
    interface Result {
      requests: { average: number; total: number };
      latency: { p50: number; p99: number; average: number };
      non2xx: number;
      errors: number;
      timeouts: number;
      /** Answers by HTTP status: `{ "429": { count: 1200 } }` (the count a string in some versions). */
      statusCodeStats: Record<string, { count: number | string }>;
      /** Seconds the run took. */
      duration: number;
    }
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Seconds before a request without an answer counts as a timeout (10). */
      timeout?: number;
      /** Stops after this many requests in all, even within `duration`. */
      maxOverallRequests?: number;
      /** `setupRequest` may change each request before it is sent (a fresh body). */
      requests?: Array<Request & { setupRequest?: (request: Request) => Request }>;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
