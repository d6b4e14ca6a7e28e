// `<seatkit-map>`: the picker's map as an element with a small API (after seats.io's renderer), by
// seat id: `select(ids)`, `deselect(ids)`, `zoomToSeats(ids)`, `seat(id)` (name, status, selected,
// spoken label and its square on the page), `seatAt(x, y)`, `selection`, `seats`, `zones`, `view`; and
// events that bubble:
// `selection` (detail.seats: the ids chosen), `hold` (detail.hold: the server's hold after each change)
// and `refusal` (detail.message in the buyer's language, detail.problem the server's problem document).
// The picker (js/picker.js) attaches what answers; calls before it has are refused with a clear error.

export class SeatKitMap extends HTMLElement {
  attach(controller) {
    this.controller = controller;
    this.dispatchEvent(new CustomEvent('ready', { bubbles: true }));
  }

  get ready() { return Boolean(this.controller); }

  call(name, ...args) {
    if (!this.controller) throw new Error(`seatkit-map: ${name}() before the map has loaded (wait for its "ready" event)`);
    return this.controller[name](...args);
  }

  select(ids) { return this.call('select', [].concat(ids)); }
  deselect(ids) { return this.call('deselect', [].concat(ids)); }
  zoomToSeats(ids) { return this.call('zoomToSeats', [].concat(ids)); }
  seat(id) { return this.call('seat', id); }
  get selection() { return this.call('selection'); }
  get seats() { return this.call('seats'); }
  get view() { return this.call('view'); }
  /// Each zone with its free seats now (what the zones level shows).
  get zones() { return this.call('zones'); }
  /// The seat id under a point of the page, or null.
  seatAt(x, y) { return this.call('seatAt', x, y); }
}

if (!customElements.get('seatkit-map')) customElements.define('seatkit-map', SeatKitMap);
