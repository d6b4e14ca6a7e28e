// The door page's words, in Chinese and English (one language at a time; the page's own toggle).

import { phrasebook } from './i18n.js';

const words = {
  zh: {
    title: 'SeatKit 检票', skip: '跳到主要内容', signInTitle: '检票员登录', keyLabel: '或使用操作员密钥', signIn: '登录', signOut: '退出',
    wrongKey: '这不是操作员的密钥，请检查后重试。', nameLabel: '用户名', passwordLabel: '密码', codeLabel: '动态验证码（6 位）',
    nameAndPassword: '请输入用户名和密码，或操作员密钥。', wrongPassword: '用户名、密码或验证码不正确。', codeNeeded: '请输入身份验证器应用中的 6 位动态验证码。',
    signInSlowed: s => `尝试次数过多，请 ${s} 秒后再试。`, setupTitle: '选择场次和检票口', showsLabel: '本检票口放行的场次', gateLabel: '检票口名称',
    gatePlaceholder: '例如：3号厅入口', start: '开始检票', noShows: '今天没有可检票的场次。', change: '更换场次',
    codeLabel: '扫描或输入票码', codeHelp: '扫码枪扫描后自动提交；也可以粘贴票码后按回车。', check: '验票', directionIn: '入场', directionOut: '离场',
    online: '在线', offline: '离线：本机验票，恢复联网后自动上传', queued: n => `待上传 ${n} 条`, inside: n => `场内 ${n} 人`,
    conflicts: '冲突（离线时放行，服务器不认可）', noConflicts: '',
    ok: '验票通过', already_in: '已入场', not_in: '未入场', revoked: '票已作废', wrong_show: '非本场次', too_early: '尚未开始检票', invalid: '无效票',
    id_required: '请核验证件', wrong_person: '证件不符', unbound: '未绑定实名',
    idLabel: '读取或输入观演人证件号', idHelp: '身份证读卡器刷卡后自动提交；也可以手动输入后按回车。', checkId: '核验证件', attendee: name => `实名观演人：${name}`,
    seat: (id, row, number) => (row && number ? `${row}排${number}座` : `座位 ${id}`), earlier: (at, gate, who) => `${at} 经 ${gate} 入场（${who}）`, offlineNote: '离线验票',
    conflict: (seat, result) => `${seat || '?'}：服务器判定为「${result}」`,
    reasons: {
      notATicket: '不是本系统的票码', truncated: '票码不完整', unknownFormat: '票码格式无法识别', signature: '签名不符：票码被篡改或伪造', unknownShow: '未知场次',
      cancelled: '该场次已取消，请引导观众到售票处退款', refunded: '此票已退票', exchanged: '此票已改签，请出示新的电子票', resold: '该座位已重新售出，此票失效',
      wrongShow: show => (show ? `这是「${show}」的票，不是本检票口的场次` : '这是其他场次的票，不是本检票口的场次'),
      tooEarly: at => `${at} 开始检票`, neverIn: '此票尚未入场，无需离场检票', wentOut: '此票已离场，请先入场检票',
      transferred: '此票已转赠他人，旧票码失效', idRequired: '请刷观演人身份证或输入证件号', wrongPerson: '证件与票面实名观演人不符',
      unbound: '此票尚未绑定实名观演人，请到售票处绑定',
    },
  },
  en: {
    title: 'SeatKit door', skip: 'Skip to content', signInTitle: 'Door sign-in', keyLabel: 'Or an operator key', signIn: 'Sign in', signOut: 'Sign out',
    wrongKey: 'That is not an operator key. Check it and try again.', nameLabel: 'Name', passwordLabel: 'Password',
    codeLabel: 'One-time code (6 digits)', nameAndPassword: 'Enter your name and password, or an operator key.',
    wrongPassword: 'The name, password or code is not right.', codeNeeded: 'Enter the 6-digit code from your authenticator app.',
    signInSlowed: s => `Too many tries: try again in ${s} s.`, setupTitle: 'Choose the shows and the gate', showsLabel: 'Shows this gate admits',
    gateLabel: 'Gate name', gatePlaceholder: 'e.g. Hall 3 entrance', start: 'Start scanning', noShows: 'No shows to scan today.', change: 'Change shows',
    codeLabel: 'Scan or type a ticket code', codeHelp: 'A scanner submits by itself; or paste a code and press Enter.', check: 'Check',
    directionIn: 'In', directionOut: 'Out',
    online: 'Online', offline: 'Offline: checking here, uploading when back', queued: n => `${n} to upload`, inside: n => `${n} inside`,
    conflicts: 'Conflicts (let through offline, refused by the server)', noConflicts: '',
    ok: 'Welcome', already_in: 'Already in', not_in: 'Not inside', revoked: 'Ticket void', wrong_show: 'Wrong show', too_early: 'Too early', invalid: 'Not a valid ticket',
    id_required: 'Check their ID', wrong_person: 'Wrong person', unbound: 'No name on it',
    idLabel: "Read or type the attendee's ID number", idHelp: 'An ID reader submits by itself; or type the number and press Enter.', checkId: 'Check ID',
    attendee: name => `Attendee: ${name}`,
    seat: (id, row, number) => (row && number ? `Row ${row} Seat ${number}` : `Seat ${id}`), earlier: (at, gate, who) => `went in at ${at} through ${gate} (${who})`, offlineNote: 'checked offline',
    conflict: (seat, result) => `${seat || '?'}: the server says "${result}"`,
    reasons: {
      notATicket: 'not a SeatKit ticket code', truncated: 'the code is cut short', unknownFormat: 'a code this scanner cannot read', signature: 'its signature fails: altered or forged', unknownShow: 'a show this scanner does not know',
      cancelled: 'The show was cancelled: send them to the box office for a refund', refunded: 'This ticket was refunded', exchanged: 'Exchanged: ask for the new ticket', resold: 'The seat was sold again: this ticket no longer stands',
      wrongShow: show => (show ? `A ticket for ${show}, not for this gate` : 'A ticket for another showing, not for this gate'),
      tooEarly: at => `Doors open at ${at}`, neverIn: 'Never scanned in: nothing to scan out', wentOut: 'Already out: scan in first',
      transferred: 'Given to another person: this old code no longer stands', idRequired: "Read the attendee's ID card or type its number",
      wrongPerson: "The ID is not this ticket's attendee's", unbound: 'Sold without a name: bind it to its attendee at the box office',
    },
  },
};

export const w = phrasebook(words);
