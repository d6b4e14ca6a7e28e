import SeatWire

/// The operations of a chain's staff: operators kept in the store and cinemas (#56).
extension APIOperation {
    /// `GET /v1/operators`
    static let listOperators = APIOperation(
        "listOperators", "The operators this manager manages (head office: everyone), removed ones too, by name; never their keys",
        access: .role(.manager, "see staff"), answers: [.json(200, "operators", .array(.ref(OperatorResource.self)))], problems: [401, 403, 503])

    /// `POST /v1/operators`
    static let createOperator = APIOperation(
        "createOperator",
        "Add an operator (managers): a name, a role and the cinemas they act for; the answer carries their key, once",
        description: "A manager of some cinemas adds operators of those cinemas only (403 outside-your-cinemas); `all` is head office's to give.",
        access: .role(.manager, "add staff"), body: .ref(OperatorRequest.self),
        answers: [.json(201, "added, with the key", .ref(OperatorResource.self))], problems: [401, 403, 409, 413, 422, 503])

    /// `PATCH /v1/operators/{name}`
    static let changeOperator = APIOperation(
        "changeOperator",
        "Change an operator's role or cinemas, disable or enable them, or reset their key (the old key stops on every instance within a second)",
        access: .role(.manager, "change staff"), parameters: [.operatorName], body: .ref(OperatorChange.self),
        answers: [.json(200, "changed (with the new key when reset)", .ref(OperatorResource.self))], problems: [401, 403, 404, 409, 413, 422, 503])

    /// `DELETE /v1/operators/{name}`
    static let deleteOperator = APIOperation(
        "deleteOperator", "Remove an operator: their key stops at once; the name stays taken (the logs name them)",
        access: .role(.manager, "remove staff"), parameters: [.operatorName], answers: [.empty(204, "removed")],
        problems: [401, 403, 404, 409, 503])

    /// `GET /v1/staff/log`
    static let staffLog = APIOperation(
        "staffLog", "Every change to operators and cinemas this manager may see, newest first: who made it, when, what",
        access: .role(.manager, "see the staff log"),
        parameters: [.query("limit", .integer(minimum: 1, maximum: 1000), description: "at most this many lines (200)")],
        answers: [.json(200, "lines", .array(.ref(StaffLogResource.self)))], problems: [400, 401, 403, 503])

    /// `GET /v1/cinemas`
    static let listCinemas = APIOperation(
        "listCinemas", "The cinemas this operator acts for (head office: every one), by id",
        access: .role(.door, "see cinemas"), answers: [.json(200, "cinemas", .array(.ref(CinemaResource.self)))], problems: [401, 503])

    /// `POST /v1/cinemas`
    static let createCinema = APIOperation(
        "createCinema", "Make a cinema of some venues (head office's managers); a venue is in one cinema",
        access: .role(.manager, "make cinemas"), body: .ref(CinemaRequest.self),
        answers: [.json(201, "made", .ref(CinemaResource.self))], problems: [401, 403, 409, 413, 422, 503])

    /// `PATCH /v1/cinemas/{id}`
    static let changeCinema = APIOperation(
        "changeCinema", "Rename a cinema or change its venues (head office's managers)",
        access: .role(.manager, "change cinemas"), parameters: [.cinemaId], body: .ref(CinemaChange.self),
        answers: [.json(200, "changed", .ref(CinemaResource.self))], problems: [401, 403, 404, 409, 413, 422, 503])
}

extension APIOperation.Parameter {
    static let operatorName = Self.path("name", .string(pattern: "^[A-Za-z0-9._@-]{1,64}$"))
    static let cinemaId = Self.path("id", .string(pattern: "^c_[0-9a-f]{12}$"))
    static let cinemaFilter = Self.query(
        "cinema", .string(pattern: "^c_[0-9a-f]{12}$"), description: "one cinema's (head office's filter; an operator of some cinemas sees theirs only)")
}

extension APIOperation {
    /// `POST /v1/sessions`
    static let signIn = APIOperation(
        "signIn",
        "Sign into the console or the door page with a name and password (and a one-time code): a session cookie and the token forms send back",
        description:
            "Wrong tries are slowed, then locked out for 15 minutes, per name and per address (429 sign-in-slowed, sign-in-locked, with Retry-After). A right password of someone with a one-time-code secret and no code: 401 code-required.",
        body: .ref(SignInRequest.self), answers: [.json(201, "signed in (Set-Cookie: sk_session)", .ref(SessionResource.self))],
        problems: [401, 413, 422, 429, 503])

    /// `DELETE /v1/sessions/current`
    static let signOut = APIOperation(
        "signOut", "Sign out: the session ends on every instance within a second and its cookie is cleared", answers: [.empty(204, "signed out")],
        problems: [403, 503])
}
