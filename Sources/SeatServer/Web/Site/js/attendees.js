// @ts-check
// The attendees step of a real-name show (实名观演人), between the seats and paying: the buyer's saved
// attendees (their attendee book, a token this browser keeps) as a list to tick, as Maoyan and Damai show
// them, one a seat (perTicket) or one an order (perOrder); a form to add one, its ID card number checked as
// it is typed (js/attendee-pick.js, the server's own rule). The picks are sent as the hold's attendees; a
// document with a seat of the show already is the server's 409, said in words, and nothing is bought.

import { api, ApiProblem } from './api.js';
import { aw } from './attendee-words.js';
import { assignment, DOCUMENT_TYPES, idCardProblem, needed } from './attendee-pick.js';
import { $, el } from './ui.js';

const BOOK = 'seatkit.attendeeBook';

export class AttendeesStep {
  /**
   * @param {{ session: any, mode: 'perTicket' | 'perOrder', seats: () => string[], names: (ids: string[]) => string,
   *   summary: () => { title: string, when: string }, onDone: () => void, onBack: () => void }} config
   */
  constructor(config) {
    this.session = config.session; this.mode = config.mode; this.seats = config.seats; this.names = config.names; this.summary = config.summary;
    this.onDone = config.onDone; this.onBack = config.onBack;
    /** @type {{ id: string, name: string, idType: string, idNumber: string }[]} */ this.saved = [];
    /** @type {string[]} the saved attendees ticked, in the order ticked */ this.picked = [];
    $('who-back').addEventListener('click', () => { this.close(); this.onBack(); });
    $('who-next').addEventListener('click', () => this.send());
    $('who-add').addEventListener('click', () => this.openForm(true));
    $('who-cancel').addEventListener('click', () => this.openForm(false));
    $('who-form').addEventListener('submit', event => { event.preventDefault(); this.save(); });
    $('who-number').addEventListener('input', () => this.checkNumber(false));
  }

  get open() { return !$('who-page').hidden; }

  /** The book's token, made on the first save. */
  get book() { return localStorage.getItem(BOOK); }

  async show() {
    $('show-page').hidden = true;
    $('who-page').hidden = false;
    window.scrollTo(0, 0);
    $('who-title').textContent = aw('title');
    const s = this.summary();
    $('who-summary').replaceChildren(el('p', { class: 'pay-film' }, s.title), el('p', { class: 'pay-when' }, s.when),
      el('p', { class: 'pay-seats' }, `${aw('seats')} ${this.names(this.seats())}`));
    $('who-rule').textContent = aw(this.mode === 'perOrder' ? 'ruleOrder' : 'rule');
    $('who-add').textContent = `+ ${aw('add')}`;
    $('who-next').textContent = aw('next');
    $('who-back').textContent = aw('back');
    for (const [id, key] of [['who-name-label', 'name'], ['who-type-label', 'type'], ['who-number-label', 'number'], ['who-phone-label', 'phone']]) {
      $(id).textContent = aw(key);
    }
    $('who-save').textContent = aw('save');
    $('who-cancel').textContent = aw('cancel');
    const types = aw('types');
    $('who-type').replaceChildren(...DOCUMENT_TYPES.map(type => el('option', { value: type }, types[type])));
    this.say('');
    await this.load();
    this.openForm(this.saved.length === 0);
  }

  close() { $('who-page').hidden = true; $('show-page').hidden = false; }

  async load() {
    this.saved = [];
    if (this.book) {
      try { this.saved = (await api.book(this.book)).attendees; } catch { /* a book gone: a new one is made on the next save */ }
    }
    this.picked = this.picked.filter(id => this.saved.some(s => s.id === id));
    this.render();
  }

  render() {
    const n = needed(this.seats().length, this.mode), types = aw('types');
    $('who-count').textContent = `${aw('pick', n)} · ${aw('picked', this.picked.length, n)}`;
    $('who-list').replaceChildren(...(this.saved.length ? this.saved.map(s => {
      const box = el('input', { type: 'checkbox', value: s.id, checked: this.picked.includes(s.id) });
      box.addEventListener('change', () => this.toggle(s.id, box.checked));
      return el('li', {}, el('label', { class: 'who-person' }, box,
        el('span', { class: 'who-name' }, s.name), el('span', { class: 'who-doc' }, `${types[s.idType] ?? s.idType} ${s.idNumber}`)));
    }) : [el('li', { class: 'who-empty' }, aw('none'))]));
    /** @type {HTMLButtonElement} */ ($('who-next')).disabled = this.picked.length !== n;
  }

  /** @param {string} id @param {boolean} on */
  toggle(id, on) {
    const n = needed(this.seats().length, this.mode);
    this.picked = this.picked.filter(p => p !== id);
    if (on) this.picked.push(id);
    // Ticking one more than the seats lets the first ticked go, as a single choice would.
    if (this.picked.length > n) this.picked.shift();
    this.say('');
    this.render();
  }

  /** @param {boolean} open */
  openForm(open) {
    $('who-form').hidden = !open;
    $('who-add').hidden = open;
    if (open) $('who-name').focus();
  }

  /** The number's problem as it is typed (ID cards: the server's own check), said under the field. @param {boolean} final */
  checkNumber(final) {
    const type = /** @type {HTMLSelectElement} */ ($('who-type')).value, number = /** @type {HTMLInputElement} */ ($('who-number')).value;
    const problem = type === 'idCard' && (final || number.replace(/\s/g, '').length >= 18) ? idCardProblem(number) : null;
    const words = problem ? aw('problems')[problem.problem] : '';
    $('who-number-problem').textContent = typeof words === 'function' ? words(problem?.expected) : words;
    $('who-number').setAttribute('aria-invalid', problem ? 'true' : 'false');
    return !problem;
  }

  async save() {
    const name = /** @type {HTMLInputElement} */ ($('who-name')).value.trim();
    if (!name) { this.say(aw('nameNeeded')); $('who-name').focus(); return; }
    if (!this.checkNumber(true)) { $('who-number').focus(); return; }
    const body = {
      name, idType: /** @type {HTMLSelectElement} */ ($('who-type')).value, idNumber: /** @type {HTMLInputElement} */ ($('who-number')).value,
    };
    const phone = /** @type {HTMLInputElement} */ ($('who-phone')).value.trim();
    if (phone) body.phone = phone;
    try {
      if (!this.book) localStorage.setItem(BOOK, (await api.newBook()).book);
      const made = await api.saveToBook(/** @type {string} */ (this.book), body);
      const id = made.attendees[0].id;
      for (const field of ['who-name', 'who-number', 'who-phone']) /** @type {HTMLInputElement} */ ($(field)).value = '';
      await this.load();
      this.toggle(id, true);
      this.openForm(false);
      $('who-next').focus();
    } catch (error) {
      this.say(aw('failed', error instanceof ApiProblem ? error.problem.detail ?? error.message : String(error)));
    }
  }

  /** The picks as the hold's attendees; on to paying (or buying) once the server has them. */
  async send() {
    const seats = this.seats(), picks = assignment(seats, this.picked, this.mode);
    if (!picks) { this.say(aw('wrongCount', needed(seats.length, this.mode))); return; }
    /** @type {HTMLButtonElement} */ ($('who-next')).disabled = true;
    $('who-next').textContent = aw('saving');
    try {
      await api.setAttendees(this.session.hold.token, picks, this.book);
      this.close();
      this.onDone();
    } catch (error) {
      const detail = error instanceof ApiProblem ? error.problem.detail ?? '' : String(error);
      this.say(error instanceof ApiProblem && error.problem.type === '/problems/id-already-used' ? this.used(detail) : aw('failed', detail));
    } finally {
      $('who-next').textContent = aw('next');
      this.render();
    }
  }

  /** The server's refusal in the page's words, its seats as printed (`9-1` → 9排1座): which seat, and the one the ID has. @param {string} detail */
  used(detail) {
    const seat = /seat (\S+?):/.exec(detail)?.[1], other = /already has seat (\S+) of show/.exec(detail)?.[1];
    return aw('used', seat ? this.names([seat]) : '', other ? this.names([other]) : '');
  }

  /** @param {string} text */
  say(text) {
    $('who-message').textContent = text;
    $('who-message').hidden = !text;
  }
}
