// History-based navigation: the stock binary answers every unknown path with index.html, so /things is
// a real URL that survives a reload.

export const location_ = $state({ path: window.location.pathname, search: window.location.search });

function sync(): void {
  location_.path = window.location.pathname;
  location_.search = window.location.search;
}

export function navigate(to: string, replace = false): void {
  if (to === window.location.pathname + window.location.search) return;
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  sync();
}

export function currentPath(): string {
  return location_.path + location_.search;
}

window.addEventListener("popstate", sync);

// Plain <a href="/things"> links navigate in place; /_/ (the admin UI) and modified clicks load normally.
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.("a");
  if (!anchor || anchor.target || anchor.hasAttribute("download") || anchor.origin !== window.location.origin) return;
  if (anchor.pathname.startsWith("/_/") || anchor.pathname.startsWith("/api/")) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
});
