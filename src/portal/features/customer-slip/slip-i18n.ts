import { addCatalogueBlocks } from '../../lib/i18n';

// The customer slip's texts: the `slip` block of each catalogue, left out of the teller's first load
// (vite.config.ts, tellerCatalogue) and added here, by the slip's own chunk, before its first render.
const blocks = import.meta.glob<Record<string, unknown>>('../../locales/*.json', {
  eager: true,
  import: 'default',
  query: '?slip',
});
for (const [file, slip] of Object.entries(blocks)) {
  addCatalogueBlocks(/([\w-]+)\.json$/.exec(file)![1], { slip });
}
