// Which of the given test ids (and cards of the hand) lie outside the viewport, and whether
// the page scrolls: [] when everything fits (tests/browser/test_table.py).
(ids) => {
  const out = [];
  for (const id of ids) {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el) { out.push(`${id}: missing`); continue; }
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) out.push(`${id}: not shown`);
    else if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      out.push(`${id}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} outside ${innerWidth}×${innerHeight}`);
  }
  // the cards of the hand too (a fan that runs off the edge is no good)
  for (const b of document.querySelectorAll('#hand button.card')) {
    const r = b.getBoundingClientRect();
    if (r.left < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) { out.push(`card ${b.dataset.card} outside`); break; }
  }
  if (scrollY !== 0 || document.documentElement.scrollHeight > innerHeight + 1) out.push(`page scrolls: ${scrollY}, ${document.documentElement.scrollHeight}`);
  return out;
}
