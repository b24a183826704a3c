import { addCatalogueBlocks } from '../../lib/i18n';

// The report dialog's texts: the `tellerReport` block of each catalogue, left out of the teller's first load
// (vite.config.ts, tellerCatalogue) and added here, by the dialog's own chunk, before its first render.
const blocks = import.meta.glob<Record<string, unknown>>('../../locales/*.json', {
  eager: true,
  import: 'default',
  query: '?report',
});
for (const [file, tellerReport] of Object.entries(blocks)) {
  addCatalogueBlocks(/([\w-]+)\.json$/.exec(file)![1], { tellerReport });
}
