// The entry: index.html's app-bar shell is painted first, then the portal starts. The portal's chunks are
// fetched at once (index.html preloads them: vite.config.ts, preloadPortal), but evaluated only after the
// shell's first frame (requestAnimationFrame runs just before a paint, the timeout just after it). On a
// teller's slow link the scripts take seconds and the shell shows meanwhile anyway; on a fast one this costs a
// frame, and the first paint is the shell in every run rather than whichever of the two a race lets through.
requestAnimationFrame(() => setTimeout(() => void import('./start')));
