import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../../testing/test-app';

interface HappyDomApi {
  setURL(url: string): void;
  waitUntilComplete(): Promise<void>;
}
const happyDom = () => (window as unknown as { happyDOM: HappyDomApi }).happyDOM;

/**
 * The real API (createTestApp: the real app on a private copy of the seeded data) listening on a free
 * loopback port, with the test document placed on the same origin, so the portal's relative /v1 requests
 * reach it exactly as in the browser.
 */
export async function startPortalApi(): Promise<TestApp> {
  const api = await createTestApp();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as AddressInfo;
  happyDom().setURL(`http://127.0.0.1:${port}/`);
  return {
    ...api,
    async close() {
      // Prefetches of the next page may still be on the wire; let them land before the server goes.
      await happyDom().waitUntilComplete();
      await api.close();
    },
  };
}
