import { loadConfig } from '../server/config';
import { openStore } from '../server/open-store';
import type { DataSet } from '../server/domain/data-set';

// A writer for snapshot tests: replaces the served data set again and again, alternating two variants whose
// every table carries the variant's marker (` ~0` / ` ~1`), and prints a line after each commit. Stops when
// killed. DATA_DIR or DATABASE_URL as for the service.

const marked = (dataSet: DataSet, marker: string): DataSet => ({
  ...dataSet,
  countries: dataSet.countries.map((c, i) => (i === 0 ? { ...c, name: `${c.name}${marker}` } : c)),
  headOffices: dataSet.headOffices.map((h, i) => (i === 0 ? { ...h, name: `${h.name}${marker}` } : h)),
  branches: dataSet.branches.map((b, i) => (i === 0 ? { ...b, branchName: `${b.branchName}${marker}` } : b)),
  agents: dataSet.agents.map((a, i) => (i === 0 ? { ...a, agentName: `${a.agentName}${marker}` } : a)),
  sources: dataSet.sources.map((s, i) => (i === 0 ? { ...s, file: `${s.file}${marker}` } : s)),
});

const config = loadConfig();
const store = await openStore({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL || undefined });
const { dataSet } = await store.readDataSet();
const variants = [marked(dataSet, ' ~0'), marked(dataSet, ' ~1')];
for (let i = 0; ; i++) {
  await store.replaceDataSet(variants[i % 2]);
  process.stdout.write(`committed ${i}\n`);
}
