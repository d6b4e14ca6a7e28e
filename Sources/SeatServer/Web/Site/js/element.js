// `<seatkit-map show="…">`: one show's seat map as an element, for this page or any other page of the
// same origin (`/web/embed.html` is an example): it builds its parts (the canvas surface with the seat
// focus, the row gutter, the minimap, a toast and a live region), loads the show and holds seats as the
// buyer taps them (js/seatpicker.js). Attributes: `show` (starts it), `venue` (optional: the show's venue,
// so its geometry is fetched at once), `lang` (zh or en), `mode` (`operator`: taps and drags only mark
// seats of any status for the console's actions; nothing is held). A small API, by seat id, after seats.io's
// renderer: `select(ids)`, `deselect(ids)`, `zoomToSeats(ids)`, `seat(id)` (name, status, selected, fill, glyph, ink,
// spoken label and its square on the page), `seatAt(x, y)`, `selection`, `seats`, `zones` (with live free
// counts), `hold`, `confirm()`, `release()`, `view`. Events that bubble: `ready`, `tap`, `selection`
// (detail.seats), `hold` (detail.hold: the server's hold after each change), `refusal` (detail.message in
// the buyer's language, detail.problem the server's problem document; cancel it to show it yourself),
// `change`, `show`, `statuses`, `connection`.

import { lang, setLanguage } from './i18n.js';
import { SeatPicker } from './seatpicker.js';

export class SeatKitMap extends HTMLElement {
  static observedAttributes = ['show'];

  connectedCallback() { this.build(); this.begin(); }

  attributeChangedCallback() { if (this.isConnected) this.begin(); }

  /// The element's parts, made once; their ids derive from the element's (`map` → `map-surface`, …).
  build() {
    if (this.parts) return;
    const make = (tag, props) => Object.assign(document.createElement(tag), props);
    const id = suffix => (this.id ? `${this.id}-${suffix}` : '');
    const focus = [0, 1].map(k => {
      const el = make('div', { className: 'seat-focus', tabIndex: k === 0 ? 0 : -1, hidden: k === 1 });
      el.setAttribute('role', 'button');
      return el;
    });
    const surface = make('div', { className: 'map-surface', id: id('surface') });
    surface.append(...focus);
    const gutter = make('div', { className: 'gutter', id: id('gutter') });
    gutter.setAttribute('aria-hidden', 'true');
    // Rows that run up and down the screen (an arena's sections beside the stage) are named along the top.
    const topGutter = make('div', { className: 'gutter-top', id: id('gutter-top'), hidden: true });
    topGutter.setAttribute('aria-hidden', 'true');
    surface.append(topGutter);
    const minimap = make('canvas', { className: 'minimap', id: id('minimap') });
    minimap.setAttribute('aria-hidden', 'true');
    const toast = make('div', { className: 'map-toast', id: id('toast') });
    toast.setAttribute('role', 'alert');
    const announcer = make('div', { className: 'visually-hidden', id: id('announcer') });
    announcer.setAttribute('aria-live', 'polite'); announcer.setAttribute('aria-atomic', 'true');
    this.append(surface, gutter, minimap, toast, announcer);
    if (!this.hasAttribute('role')) this.setAttribute('role', 'application');
    // In the page's language when the page names none (the console's desk in Chinese: 座位图).
    if (!this.hasAttribute('aria-roledescription')) {
      this.setAttribute('aria-roledescription', (this.closest('[lang]')?.lang ?? '').startsWith('zh') ? '座位图' : 'seat map');
    }
    this.classList.add('map');
    this.parts = { surface, gutter, topGutter, minimap, focus, toast, announcer };
  }

  /// Starts the picker for the `show` attribute (once; a new show id starts a new one).
  begin() {
    const show = this.getAttribute('show');
    if (!show || this.picker?.showId === show) return;
    const language = this.getAttribute('lang');
    if ((language === 'zh' || language === 'en') && language !== lang()) setLanguage(language);
    this.picker?.stop();
    this.controller = null;
    const mode = this.getAttribute('mode') === 'operator' ? 'operator' : 'buyer';
    this.picker = new SeatPicker(this, show, { parts: this.parts, venueHint: this.getAttribute('venue'), mode });
    this.picker.start().catch(error => {
      this.dispatchEvent(new CustomEvent('failure', { detail: { error }, bubbles: true }));
    });
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
  /// The seat id under a point of the page, or null.
  seatAt(x, y) { return this.call('seatAt', x, y); }
  confirm() { return this.call('confirm'); }
  release() { return this.call('release'); }
  get selection() { return this.call('selection'); }
  get seats() { return this.call('seats'); }
  /// Each zone with its free seats now (what the zones level shows).
  get zones() { return this.call('zones'); }
  get hold() { return this.call('hold'); }
  get view() { return this.call('view'); }
}

if (!customElements.get('seatkit-map')) customElements.define('seatkit-map', SeatKitMap);
