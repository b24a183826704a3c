import { addCatalogueBlocks } from './i18n';

// The operations desk's texts: the `ops` block of each catalogue, left out of the teller's first load
// (vite.config.ts, tellerCatalogue) and added here, by the desk's own chunk, before its first render: now to
// the catalogues loaded, and to the others when they are fetched.
const blocks = import.meta.glob<Record<string, unknown>>('../locales/*.json', { eager: true, import: 'ops' });
for (const [file, ops] of Object.entries(blocks)) {
  addCatalogueBlocks(/([\w-]+)\.json$/.exec(file)![1], { ops });
}
