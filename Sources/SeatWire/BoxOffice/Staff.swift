import Foundation
import SeatJSON
import SeatMap

extension JSONObject {
    /// Optional members written as `null`: refused (the staff's bodies have no null member; read as
    /// absent, `"venues": null` once changed a cinema's name and passed for a change of its halls).
    func refuseNulls(_ keys: [String], into log: inout ProblemLog) {
        for key in keys where self[key] == .null { log.add(key, "null is not a value here: leave the member out instead") }
    }
}

/// Which cinemas an operator acts for: every one (`"all"`, head office) or some (their ids).
public enum CinemaScope: Sendable, Hashable {
    case all
    case some([String])

    /// nil for all, as the store keeps it.
    public var ids: [String]? { if case .some(let ids) = self { ids } else { nil } }
    public init(_ ids: [String]?) { self = ids.map { .some($0) } ?? .all }

    func write(into w: inout JSONWriter) {
        switch self {
        case .all: w.string("all")
        case .some(let ids): w.strings(ids)
        }
    }

    /// `key` of `o`: `"all"` or 1 to 100 cinema ids, each named when it is not one.
    static func read(_ o: JSONObject, _ key: String, into log: inout ProblemLog, required: Bool) -> CinemaScope? {
        guard let v = o[key] else {
            if required { log.add(key, "expected \"all\" or a list of cinema ids") }
            return nil
        }
        if v.stringValue == "all" { return .all }
        guard let list = v.arrayValue else { log.add(key, "expected \"all\" or a list of cinema ids, got \(v.shortDescription)"); return nil }
        guard (1...100).contains(list.count) else { log.add(key, "1 to 100 cinemas, got \(list.count) (\"all\" for every one)"); return nil }
        var ids: [String] = []
        for (k, item) in list.enumerated() {
            guard let s = item.stringValue, WireIdentifier.isValid(s) else {
                log.add("\(key)[\(k)]", "expected a cinema id, got \(item.shortDescription)"); continue
            }
            if ids.contains(s) { log.add("\(key)[\(k)]", "\(s) is listed twice"); continue }
            ids.append(s)
        }
        return .some(ids)
    }

    static let schema: JSONSchema = {
        var all = JSONSchema.string()
        all.const = "all"
        var s = JSONSchema()
        s.anyOf = [all, .array(.string(pattern: WireIdentifier.pattern), minItems: 1, maxItems: 100, unique: true)]
        s.description = "\"all\" (head office) or the cinemas' ids"
        return s
    }()
}

/// `POST /v1/operators` (managers): a person (or a checkout's server) who may act, with a role and
/// the cinemas they act for. The answer carries their key, once.
public struct OperatorRequest: Sendable, Hashable {
    public var name: String
    public var role: String
    public var cinemas: CinemaScope
    /// Their console password (a person; a checkout's server signs in by key only).
    public var password: String?

    public init(name: String, role: String, cinemas: CinemaScope, password: String? = nil) {
        self.name = name; self.role = role; self.cinemas = cinemas; self.password = password
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["name", "role", "cinemas", "password"], at: "", into: &log)
        o.refuseNulls(["password"], into: &log)
        let name = o.text("name", into: &log), role = o.text("role", into: &log)
        let cinemas = CinemaScope.read(o, "cinemas", into: &log, required: true)
        let password = o.string("password", at: "", into: &log, required: false)
        guard log.isEmpty, let name, let role, let cinemas else { throw .invalid(log.error) }
        self.init(name: name, role: role, cinemas: cinemas, password: password)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("role"); w.string(role); w.key("cinemas"); cinemas.write(into: &w)
        if let password { w.key("password"); w.string(password) }
        w.raw("}")
        return w.bytes
    }
}

extension OperatorRequest: WireBody {
    public static let schemaName = "OperatorRequest"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(pattern: "^[A-Za-z0-9._@-]{1,64}$"),
            "role": .oneOf(["door", "boxoffice", "manager", "checkout"]),
            "cinemas": CinemaScope.schema,
            "password": .string(minLength: 10, maxLength: 200).described("their console password (10 to 200 characters, not their name)"),
        ], required: ["name", "role", "cinemas"], closed: true
    ).example(#"{"name":"mei.lin","role":"boxoffice","cinemas":["c_north"]}"#)
}

/// `PATCH /v1/operators/{name}` (managers): any of a new role, new cinemas, disabled or enabled, a new key.
public struct OperatorChange: Sendable, Hashable {
    public var role: String?
    public var cinemas: CinemaScope?
    /// `active` or `disabled`.
    public var state: String?
    /// A new key (the old one stops at once): the answer carries it, once.
    public var resetKey: Bool
    /// A new console password (their sessions end).
    public var password: String?
    /// true: a new one-time-code secret (the answer carries its `otpauth://` address, once); false: none.
    public var totp: Bool?

    public init(
        role: String? = nil, cinemas: CinemaScope? = nil, state: String? = nil, resetKey: Bool = false, password: String? = nil, totp: Bool? = nil
    ) {
        self.role = role; self.cinemas = cinemas; self.state = state; self.resetKey = resetKey; self.password = password; self.totp = totp
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["role", "cinemas", "state", "resetKey", "password", "totp"], at: "", into: &log)
        o.refuseNulls(["role", "state", "password"], into: &log)
        let role = o.text("role", into: &log, required: false), state = o.text("state", into: &log, required: false)
        let cinemas = CinemaScope.read(o, "cinemas", into: &log, required: false)
        var reset = false
        if let v = o["resetKey"] {
            if let b = v.boolValue { reset = b } else { log.add("resetKey", "expected true or false, got \(v.shortDescription)") }
        }
        let password = o.string("password", at: "", into: &log, required: false)
        var totp: Bool?
        if let v = o["totp"] {
            if let b = v.boolValue { totp = b } else { log.add("totp", "expected true or false, got \(v.shortDescription)") }
        }
        if log.isEmpty, role == nil, cinemas == nil, state == nil, !reset, password == nil, totp == nil {
            log.add("", "nothing to change: give role, cinemas, state, resetKey, password or totp")
        }
        guard log.isEmpty else { throw .invalid(log.error) }
        self.init(role: role, cinemas: cinemas, state: state, resetKey: reset, password: password, totp: totp)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("resetKey", first: true); w.raw(resetKey ? "true" : "false")
        if let role { w.key("role"); w.string(role) }
        if let cinemas { w.key("cinemas"); cinemas.write(into: &w) }
        if let state { w.key("state"); w.string(state) }
        if let password { w.key("password"); w.string(password) }
        if let totp { w.key("totp"); w.raw(totp ? "true" : "false") }
        w.raw("}")
        return w.bytes
    }
}

extension OperatorChange: WireBody {
    public static let schemaName = "OperatorChange"
    public static let schema: JSONSchema = .object(
        [
            "role": .oneOf(["door", "boxoffice", "manager", "checkout"]),
            "cinemas": CinemaScope.schema,
            "state": .oneOf(["active", "disabled"]),
            "resetKey": .boolean,
            "password": .string(minLength: 10, maxLength: 200).described("a new console password: their sessions end"),
            "totp": .boolean.described("true: a new one-time-code secret (answered once as totpUri); false: none"),
        ], required: [], closed: true
    ).example(#"{"state":"disabled"}"#)
}

/// An operator as the API shows them: never their key's digest; the key itself only in the answer
/// that made it.
public struct OperatorResource: Sendable, Hashable {
    public var name: String
    public var role: String
    public var cinemas: CinemaScope
    /// `active`, `disabled` or `deleted`.
    public var state: String
    public var changedBy: String
    public var createdAt: String
    /// The key, in the answer that made it (create, reset) and never again.
    public var key: String?
    /// Whether they have a console password, and a one-time-code secret.
    public var password: Bool
    public var totp: Bool
    /// The `otpauth://` address of a new one-time-code secret, in the answer that made it, and its QR
    /// code as SVG (for the console to show the person; never a URL, so no log holds the secret).
    public var totpUri: String?
    public var totpSvg: String?

    public init(
        name: String, role: String, cinemas: CinemaScope, state: String, changedBy: String, createdAt: String, key: String? = nil,
        password: Bool = false, totp: Bool = false, totpUri: String? = nil
    ) {
        self.name = name; self.role = role; self.cinemas = cinemas; self.state = state; self.changedBy = changedBy; self.createdAt = createdAt
        self.key = key; self.password = password; self.totp = totp; self.totpUri = totpUri
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("role"); w.string(role); w.key("cinemas"); cinemas.write(into: &w)
        w.key("state"); w.string(state); w.key("changedBy"); w.string(changedBy); w.key("createdAt"); w.string(createdAt)
        w.key("password"); w.raw(password ? "true" : "false"); w.key("totp"); w.raw(totp ? "true" : "false")
        if let key { w.key("key"); w.string(key) }
        if let totpUri { w.key("totpUri"); w.string(totpUri) }
        if let totpSvg { w.key("totpSvg"); w.string(totpSvg) }
        w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let cinemas: CinemaScope = o["cinemas"]?.stringValue == "all" ? .all : .some(o.texts("cinemas"))
        self.init(
            name: o.text("name"), role: o.text("role"), cinemas: cinemas, state: o.text("state"), changedBy: o.text("changedBy"),
            createdAt: o.text("createdAt"), key: o.optionalText("key"), password: o.flag("password"), totp: o.flag("totp"),
            totpUri: o.optionalText("totpUri"))
        totpSvg = o.optionalText("totpSvg")
    }
}

extension OperatorResource: WireBody, WireWritable {
    public static let schemaName = "OperatorResource"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(), "role": .oneOf(["door", "boxoffice", "manager", "checkout"]), "cinemas": CinemaScope.schema,
            "state": .oneOf(["active", "disabled", "deleted"]), "changedBy": .string(), "createdAt": .string(format: "date-time"),
            "key": .string().described("the operator's key: shown once, in the answer that made it"),
            "password": .boolean, "totp": .boolean,
            "totpUri": .string(pattern: "^otpauth://totp/").described("a new one-time-code secret for an authenticator app: shown once"),
            "totpSvg": .string(pattern: "^<svg").described("totpUri as a QR code (SVG) for the app to scan: shown once"),
        ], required: ["name", "role", "cinemas", "state", "changedBy", "createdAt", "password", "totp"])
}

/// `POST /v1/cinemas` (head office's managers): a cinema of the chain and the venues it runs.
public struct CinemaRequest: Sendable, Hashable {
    public var name: String
    public var venues: [String]

    public init(name: String, venues: [String]) { self.name = name; self.venues = venues }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["name", "venues"], at: "", into: &log)
        let name = Self.name(o, into: &log, required: true)
        let venues = Self.venues(o, into: &log, required: true)
        guard log.isEmpty, let name, let venues else { throw .invalid(log.error) }
        self.init(name: name, venues: venues)
    }

    static func name(_ o: JSONObject, into log: inout ProblemLog, required: Bool) -> String? {
        guard let name = o.text("name", into: &log, required: required) else { return nil }
        if name.trimmingCharacters(in: .whitespaces).isEmpty || name.unicodeScalars.count > 100 {
            log.add("name", "the cinema's name, 1 to 100 characters"); return nil
        }
        return name
    }

    static func venues(_ o: JSONObject, into log: inout ProblemLog, required: Bool) -> [String]? {
        guard let list = o.array("venues", at: "", into: &log, required: required) else { return nil }
        if list.count > 200 { log.add("venues", "at most 200 venues, got \(list.count)"); return nil }
        var out: [String] = []
        for (k, v) in list.enumerated() {
            guard let s = v.stringValue, WireIdentifier.isValid(s) else { log.add("venues[\(k)]", "expected a venue id, got \(v.shortDescription)"); continue }
            if out.contains(s) { log.add("venues[\(k)]", "\(s) is listed twice"); continue }
            out.append(s)
        }
        return out
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("venues"); w.strings(venues); w.raw("}")
        return w.bytes
    }
}

extension CinemaRequest: WireBody {
    public static let schemaName = "CinemaRequest"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 100),
            "venues": .array(.string(pattern: WireIdentifier.pattern), maxItems: 200, unique: true),
        ], required: ["name", "venues"], closed: true
    ).example(#"{"name":"北城影城","venues":["cinema-hall-3"]}"#)
}

/// `PATCH /v1/cinemas/{id}` (head office's managers): a new name, new venues, or both.
public struct CinemaChange: Sendable, Hashable {
    public var name: String?
    public var venues: [String]?

    public init(name: String? = nil, venues: [String]? = nil) { self.name = name; self.venues = venues }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["name", "venues"], at: "", into: &log)
        o.refuseNulls(["name", "venues"], into: &log)
        let name = CinemaRequest.name(o, into: &log, required: false), venues = CinemaRequest.venues(o, into: &log, required: false)
        if log.isEmpty, name == nil, venues == nil { log.add("", "nothing to change: give name or venues") }
        guard log.isEmpty else { throw .invalid(log.error) }
        self.init(name: name, venues: venues)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{")
        var first = true
        if let name { w.key("name", first: first); w.string(name); first = false }
        if let venues { w.key("venues", first: first); w.strings(venues) }
        w.raw("}")
        return w.bytes
    }
}

extension CinemaChange: WireBody {
    public static let schemaName = "CinemaChange"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(pattern: #"^[^\u0000-\u001f\u007f-\u009f]*\S[^\u0000-\u001f\u007f-\u009f]*$"#, minLength: 1, maxLength: 100),
            "venues": .array(.string(pattern: WireIdentifier.pattern), maxItems: 200, unique: true),
        ], required: [], closed: true
    ).example(#"{"venues":["cinema-hall-3","imax-1"]}"#)
}

/// A cinema as the API shows it.
public struct CinemaResource: Sendable, Hashable {
    public var id: String
    public var name: String
    public var venues: [String]
    public var createdAt: String

    public init(id: String, name: String, venues: [String], createdAt: String) {
        self.id = id; self.name = name; self.venues = venues; self.createdAt = createdAt
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("id", first: true); w.string(id); w.key("name"); w.string(name); w.key("venues"); w.strings(venues)
        w.key("createdAt"); w.string(createdAt); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(id: o.text("id"), name: o.text("name"), venues: o.texts("venues"), createdAt: o.text("createdAt"))
    }
}

extension CinemaResource: WireBody, WireWritable {
    public static let schemaName = "CinemaResource"
    public static let schema: JSONSchema = .object(
        ["id": .string(pattern: "^c_"), "name": .string(), "venues": .array(.string()), "createdAt": .string(format: "date-time")],
        required: ["id", "name", "venues", "createdAt"])
}

/// A line of the staff log (`GET /v1/staff/log`): who changed which operator or cinema, and how.
public struct StaffLogResource: Sendable, Hashable {
    public var at: String
    public var operatorName: String
    public var action: String
    public var subject: String
    public var detail: String

    public init(at: String, operatorName: String, action: String, subject: String, detail: String) {
        self.at = at; self.operatorName = operatorName; self.action = action; self.subject = subject; self.detail = detail
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("at", first: true); w.string(at); w.key("operator"); w.string(operatorName); w.key("action"); w.string(action)
        w.key("subject"); w.string(subject); w.key("detail"); w.string(detail); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        self.init(at: o.text("at"), operatorName: o.text("operator"), action: o.text("action"), subject: o.text("subject"), detail: o.text("detail"))
    }
}

extension StaffLogResource: WireBody, WireWritable {
    public static let schemaName = "StaffLogLine"
    public static let schema: JSONSchema = .object(
        [
            "at": .string(format: "date-time"), "operator": .string(),
            "action": .oneOf([
                "operator-created", "operator-changed", "key-reset", "operator-deleted", "operator-imported", "cinema-created", "cinema-changed",
            ]),
            "subject": .string(), "detail": .string(),
        ], required: ["at", "operator", "action", "subject", "detail"])
}

/// `POST /v1/sessions`: a person signs into the console (or the door page) with their name and
/// password, and their one-time code when they have one.
public struct SignInRequest: Sendable, Hashable {
    public var name: String
    public var password: String
    public var code: String?

    public init(name: String, password: String, code: String? = nil) { self.name = name; self.password = password; self.code = code }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try WireError.object(bytes)
        var log = ProblemLog()
        o.rejectUnknownKeys(["name", "password", "code"], at: "", into: &log)
        o.refuseNulls(["code"], into: &log)
        let name = o.text("name", into: &log), password = o.string("password", at: "", into: &log)
        let code = o.text("code", into: &log, required: false)
        if let name, name.utf8.count > 64 { log.add("name", "an operator's name is 1 to 64 characters") }
        if let password, password.utf8.count > 1024 { log.add("password", "at most 1,024 bytes") }
        guard log.isEmpty, let name, let password else { throw .invalid(log.error) }
        self.init(name: name, password: password, code: code)
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("password"); w.string(password)
        if let code { w.key("code"); w.string(code) }
        w.raw("}")
        return w.bytes
    }
}

extension SignInRequest: WireBody {
    public static let schemaName = "SignInRequest"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(minLength: 1, maxLength: 64), "password": .string(minLength: 1, maxLength: 1024),
            "code": .string(pattern: "^[0-9]{6}$").described("the one-time code of their authenticator app, when they have one"),
        ], required: ["name", "password"], closed: true
    ).example(#"{"name":"li.wei","password":"北城影城的夜班收银员"}"#)
}

/// A session as its sign-in answers it: who, and the token forms send back (`X-CSRF-Token`); the
/// session's own token is only in its cookie (HttpOnly: no script reads it).
public struct SessionResource: Sendable, Hashable {
    public var name: String
    public var role: String
    public var cinemas: CinemaScope
    public var csrf: String
    public var expiresAt: String

    public init(name: String, role: String, cinemas: CinemaScope, csrf: String, expiresAt: String) {
        self.name = name; self.role = role; self.cinemas = cinemas; self.csrf = csrf; self.expiresAt = expiresAt
    }

    public func write(into w: inout JSONWriter) {
        w.raw("{"); w.key("name", first: true); w.string(name); w.key("role"); w.string(role); w.key("cinemas"); cinemas.write(into: &w)
        w.key("csrf"); w.string(csrf); w.key("expiresAt"); w.string(expiresAt); w.raw("}")
    }

    public init(json bytes: [UInt8]) throws(WireError) {
        let o = try Self.conformingObject(bytes)
        let cinemas: CinemaScope = o["cinemas"]?.stringValue == "all" ? .all : .some(o.texts("cinemas"))
        self.init(name: o.text("name"), role: o.text("role"), cinemas: cinemas, csrf: o.text("csrf"), expiresAt: o.text("expiresAt"))
    }
}

extension SessionResource: WireBody, WireWritable {
    public static let schemaName = "SessionResource"
    public static let schema: JSONSchema = .object(
        [
            "name": .string(), "role": .oneOf(["door", "boxoffice", "manager", "checkout"]), "cinemas": CinemaScope.schema,
            "csrf": .string(pattern: "^[0-9a-f]{32}$"), "expiresAt": .string(format: "date-time"),
        ], required: ["name", "role", "cinemas", "csrf", "expiresAt"])
}
