// The map without a pointer: one tab stop (a roving tabindex), arrow keys along a row and between
// rows, Home/End to a row's ends, Enter or Space to pick, + and − to zoom. Focus follows into view.

export function bindKeyboard(view, { onActivate }) {
  let current = null;

  function rove(seat, focus) {
    if (!seat) return;
    if (current && current !== seat) current.el.tabIndex = -1;
    current = seat;
    seat.el.tabIndex = 0;
    if (focus) seat.el.focus({ preventScroll: true });
  }

  /// The seat nearest `x` in the row `k` steps away (rows ordered top to bottom as drawn).
  function across(seat, k) {
    let r = view.rowOf.get(seat.row) + k;
    while (r >= 0 && r < view.rows.length && view.rows[r].seats.length === 0) r += k;
    const row = view.rows[r];
    if (!row) return null;
    return row.seats.reduce((a, b) => (Math.abs(b.cx - seat.cx) < Math.abs(a.cx - seat.cx) ? b : a));
  }

  function along(seat, k) {
    const seats = view.rows[view.rowOf.get(seat.row)].seats;
    return seats[seats.indexOf(seat) + k] || null;
  }

  view.container.addEventListener('focusin', e => {
    const el = e.target.closest?.('g.seat');
    if (!el) return;
    const seat = view.seats[Number(el.dataset.index)];
    rove(seat, false);
    view.reveal(seat);
  });

  view.container.addEventListener('keydown', e => {
    const el = e.target.closest?.('g.seat');
    if (e.key === '+' || e.key === '=') { view.zoomTo(view.zoom * 1.25); e.preventDefault(); return; }
    if (e.key === '-') { view.zoomTo(view.zoom / 1.25); e.preventDefault(); return; }
    if (!el) return;
    const seat = view.seats[Number(el.dataset.index)];
    const row = view.rows[view.rowOf.get(seat.row)].seats;
    const next = {
      ArrowLeft: () => along(seat, -1), ArrowRight: () => along(seat, 1),
      ArrowUp: () => across(seat, -1), ArrowDown: () => across(seat, 1),
      Home: () => row[0], End: () => row[row.length - 1],
      PageUp: () => across(seat, -5) || across(seat, -1), PageDown: () => across(seat, 5) || across(seat, 1),
    }[e.key];
    if (next) { e.preventDefault(); rove(next(), true); return; }
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onActivate(seat); }
  });

  return {
    /// Makes `seat` the map's tab stop (after a load: the seat nearest the middle of the best rows).
    setTabStop: seat => rove(seat, false),
    focus: seat => rove(seat, true),
    get current() { return current; },
  };
}
