import { join } from 'node:path';
import { readSeedFiles, SEED_DIR } from '../src/server/seed/seed';
import { generatedDataSet, writeAgentsFile } from '../src/server/seed/generate';

// `npm run generate:agents`: agent locations are not published (data/seed/SOURCES.md), so the shipped agents
// are drawn once by the generator (src/server/seed/agents.ts: faker, the real states and cities, phone numbers
// of the country's plan) from partners.csv and committed as data/seed/agents.csv. Seeding reads that file like
// an import; run this again after changing partners.csv or the generator, and commit the result.
const dataSet = generatedDataSet(readSeedFiles());
const path = join(SEED_DIR, 'agents.csv');
writeAgentsFile(dataSet, path);
console.log(`Wrote ${dataSet.agents.length} agents to ${path}`);
