import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './fixtures/testServer.ts';

let server: TestServer | undefined;
afterEach(() => server?.close());

const preflight = (origin: string) =>
  fetch(`${origin}/json`, {
    method: 'OPTIONS',
    headers: {
      Origin: 'http://page.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'idempotency-key,content-type',
    },
  });

describe("the test server's CORS mode", () => {
  it('rule: opted in, it answers a preflight allowing Idempotency-Key and Content-Type, and every answer names the origin', async () => {
    server = await startTestServer({ cors: true });
    const answer = await preflight(server.origin);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://page.example');
    const allowed = answer.headers.get('access-control-allow-headers')!.toLowerCase();
    expect(allowed).toContain('idempotency-key');
    expect(allowed).toContain('content-type');
    // A preflight is no request of the call's: it is not counted.
    expect(server.requests).toHaveLength(0);
    const json = await fetch(`${server.origin}/json`, {
      headers: { Origin: 'http://page.example' },
    });
    expect(json.headers.get('access-control-allow-origin')).toBe('http://page.example');
  });

  it('rule: a preflight may be kept for 0 s unless the server is told how long (preflightMaxAge)', async () => {
    server = await startTestServer({ cors: true });
    expect((await preflight(server.origin)).headers.get('access-control-max-age')).toBe('0');
    await server.close();
    server = await startTestServer({ cors: true, preflightMaxAge: 600 });
    expect((await preflight(server.origin)).headers.get('access-control-max-age')).toBe('600');
  });

  it('rule: by default it allows no other origin, so a browser refuses to let a page read it', async () => {
    server = await startTestServer();
    const answer = await preflight(server.origin);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const json = await fetch(`${server.origin}/json`);
    expect(json.headers.get('access-control-allow-origin')).toBeNull();
  });
});
