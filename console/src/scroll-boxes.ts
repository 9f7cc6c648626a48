// A table wider than a phone scrolls sideways inside its own box (console.css). A keyboard user can
// scroll such a box only once it takes focus, and a screen reader names it by its caption: so each table
// under `root` that overflows gets tabindex 0, and loses it when it fits again (a resize, new rows).
// Checked at most once a frame, after the DOM under `root` changed or the window was resized.

/** Keeps the overflowing tables under `root` focusable; the returned function stops. */
export function keepScrollingTablesFocusable(root: HTMLElement): () => void {
  const marked = new WeakSet<HTMLTableElement>();
  let frame = 0;
  const mark = () => {
    frame = 0;
    for (const table of root.querySelectorAll("table")) {
      const scrolls = table.scrollWidth > table.clientWidth;
      if (scrolls && !table.hasAttribute("tabindex")) {
        table.tabIndex = 0;
        marked.add(table);
      } else if (!scrolls && marked.has(table)) {
        table.removeAttribute("tabindex");
        marked.delete(table);
      }
    }
  };
  const schedule = () => {
    frame ||= requestAnimationFrame(mark);
  };
  const observer = new MutationObserver(schedule);
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  window.addEventListener("resize", schedule);
  schedule();
  return () => {
    observer.disconnect();
    window.removeEventListener("resize", schedule);
    cancelAnimationFrame(frame);
  };
}
