// @ts-check
// The attendees step's words (js/attendees.js), in Chinese and English: Maoyan's and Damai's 实名观演人 wording.

import { phrasebook } from './i18n.js';

const words = {
  zh: {
    title: '选择观演人', rule: '本场演出实行实名制：一人一票，同一证件每场限购一张，入场时核验身份证件。',
    ruleOrder: '本场演出实行实名制：每笔订单登记一位购票人证件，入场时核验。',
    pick: n => `请选择 ${n} 位观演人`, picked: (k, n) => `已选 ${k}/${n}`, none: '还没有常用观演人，请先新增。',
    add: '新增观演人', name: '姓名', type: '证件类型', number: '证件号码', phone: '手机号（选填）', save: '保存观演人', cancel: '取消',
    types: { idCard: '身份证', passport: '护照', hkMacauPermit: '港澳通行证', taiwanPermit: '台胞证', militaryID: '军官证' },
    next: '确认观演人', back: '返回修改座位', saving: '正在保存…',
    wrongCount: n => `请选择 ${n} 位观演人`, seatOf: (seat, who) => `${seat}：${who}`,
    problems: {
      length: '证件号码应为 18 位', characters: '证件号码应为 17 位数字加 1 位数字或 X', birthDate: '证件号码中的出生日期不正确',
      checkDigit: expected => `证件号码校验位应为 ${expected}，请检查是否输错`,
    },
    used: (seat, other) => `${seat ? `${seat}：` : ''}该观演人已有本场${other ? ` ${other} ` : '演出'}的票，同一证件每场只能购买一张（一人一票）。`,
    nameNeeded: '请填写姓名', failed: detail => `未能保存：${detail}`, seats: '座位', summary: (title, when) => `${title} · ${when}`,
  },
  en: {
    title: 'Who is going', rule: 'This show sells by real name: one ticket per ID per show, checked at the door.',
    ruleOrder: "This show sells by real name: one buyer's ID per order, checked at the door.",
    pick: n => `Choose ${n} ${n === 1 ? 'person' : 'people'}`, picked: (k, n) => `${k} of ${n} chosen`, none: 'No saved people yet: add one.',
    add: 'Add a person', name: 'Name', type: 'ID type', number: 'ID number', phone: 'Phone (optional)', save: 'Save', cancel: 'Cancel',
    types: { idCard: 'ID card', passport: 'Passport', hkMacauPermit: 'HK/Macau permit', taiwanPermit: 'Taiwan permit', militaryID: 'Military ID' },
    next: 'Confirm', back: 'Back to the seats', saving: 'Saving…',
    wrongCount: n => `Choose ${n} ${n === 1 ? 'person' : 'people'}`, seatOf: (seat, who) => `${seat}: ${who}`,
    problems: {
      length: 'An ID card number has 18 characters', characters: 'An ID card number is 17 digits and a digit or X',
      birthDate: 'The birth date in the number is not a date', checkDigit: expected => `The last character should be ${expected}: a digit is mistyped`,
    },
    used: (seat, other) => `${seat ? `${seat}: ` : ''}this person already has ${other ? `seat ${other}` : 'a ticket'} for this show: one ticket per ID per show.`,
    nameNeeded: 'Enter the name', seats: 'Seats', summary: (title, when) => `${title} · ${when}`,
    failed: detail => `Not saved: ${detail}`,
  },
};

export const aw = phrasebook(words);
