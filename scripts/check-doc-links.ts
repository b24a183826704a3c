// npm run lint:links: every relative link in README.md and docs/ names a file that exists, and every #anchor a
// heading of that file (GitHub's slugs). External links (http, mailto) are not fetched.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = process.cwd();

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const problems: string[] = [];
const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];
for (const file of files) {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const link = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const [path, anchor] = link.split('#') as [string, string | undefined];
    const target = path === '' ? file : resolve(dirname(file), decodeURI(path));
    const where = `${relative(root, file)}: ${link}`;
    if (!existsSync(target)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor && statSync(target).isFile() && target.endsWith('.md')) {
      if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) problems.push(`${where}: no heading #${anchor}`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Broken links in the docs:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`${files.length} Markdown files: every relative link resolves.`);
