// The map without a pointer: one tab stop, a focus element standing on the focused seat with the
// engine's spoken label (the canvas has no element a seat). Arrow keys along a row and between rows,
// Home/End to a row's ends, Page Up/Down five rows, Enter or Space to pick, + and − to zoom. Focus
// follows into view. Two focus elements take turns, so each move is a focus change a screen reader
// announces (a label changed in place is often not read).

export function bindKeyboard(view, { onActivate, elements }) {
  let current = null, active = elements[0];
  const other = () => (active === elements[0] ? elements[1] : elements[0]);

  /// Puts `el` on seat `i`: its square on the surface, its label and state.
  function place(el, i) {
    const v = view.venue, half = view.rules.seatSize / 2, size = view.rules.seatSize * view.zoom;
    const p = view.viewport.viewPoint(v.x[i] - half, v.y[i] - half);
    el.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px)`;
    el.style.width = el.style.height = `${size.toFixed(1)}px`;
    el.dataset.seatId = v.ids[i];
    el.dataset.index = String(i);
    el.setAttribute('aria-label', view.label(i));
    el.setAttribute('aria-pressed', String(view.isSelected(i)));
    el.setAttribute('aria-disabled', String(!view.isSelected(i) && view.statusOf(i) !== 'available'));
  }

  function rove(i, focus) {
    if (i === null || i === undefined) return;
    current = i;
    if (focus) {
      // The other element takes focus: a screen reader says the new seat.
      const next = document.activeElement === active ? other() : active;
      place(next, i);
      next.hidden = false; next.tabIndex = 0;
      const previous = next === active ? other() : active;
      active = next;
      active.focus({ preventScroll: true });
      previous.tabIndex = -1; previous.hidden = true;
      view.reveal(i);
    } else {
      place(active, i);
      active.hidden = false; active.tabIndex = 0;
      other().hidden = true; other().tabIndex = -1;
    }
  }

  /// The seat nearest across in the row `k` steps away (rows top to bottom as drawn).
  function across(i, k) {
    const { rows, at } = view.rows();
    let r = at.get(view.venue.rowOf[i]) + k;
    while (r >= 0 && r < rows.length && rows[r].seats.length === 0) r += k;
    const row = rows[r];
    if (!row) return null;
    const x = view.venue.x;
    return row.seats.reduce((a, b) => (Math.abs(x[b] - x[i]) < Math.abs(x[a] - x[i]) ? b : a));
  }

  function rowOf(i) { const { rows, at } = view.rows(); return rows[at.get(view.venue.rowOf[i])].seats; }

  function along(i, k) {
    const seats = rowOf(i);
    return seats[seats.indexOf(i) + k] ?? null;
  }

  for (const el of elements) {
    el.addEventListener('focus', () => { if (current !== null) view.reveal(current); });
    el.addEventListener('keydown', e => {
      if (current === null) return;
      const i = current, row = rowOf(i);
      const next = {
        ArrowLeft: () => along(i, -1), ArrowRight: () => along(i, 1),
        ArrowUp: () => across(i, -1), ArrowDown: () => across(i, 1),
        Home: () => row[0], End: () => row[row.length - 1],
        PageUp: () => across(i, -5) ?? across(i, -1), PageDown: () => across(i, 5) ?? across(i, 1),
      }[e.key];
      if (next) { e.preventDefault(); rove(next(), true); return; }
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onActivate(i); }
    });
  }

  view.container.addEventListener('keydown', e => {
    if (e.key === '+' || e.key === '=') { view.zoomTo(view.zoom * 1.25); e.preventDefault(); }
    if (e.key === '-') { view.zoomTo(view.zoom / 1.25); e.preventDefault(); }
  });

  return {
    /// Makes seat `i` the map's tab stop (after a load: the seat nearest the middle of the best rows).
    setTabStop: i => rove(i, false),
    focus: i => rove(i, true),
    /// The focused seat's label, state and place again (its status changed, the view moved).
    refresh() { if (current !== null) place(active, current); },
    get current() { return current; },
    get focused() { return elements.includes(document.activeElement); },
  };
}
