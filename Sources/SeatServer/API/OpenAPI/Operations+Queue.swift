import SeatWire

/// The waiting room's operations (docs/API.md, Waiting room).
extension APIOperation {
    /// `GET /v1/shows/{id}/queue`
    static let getQueue = APIOperation(
        "getQueue",
        "The show's waiting room (operators): settings, length, admitted so far and in the last minute, the wait at the back, the shuffle's seed commitment (and the seed once it is done)",
        access: .role(.boxoffice, "see waiting rooms"),
        parameters: [.showId],
        answers: [.json(200, "the room", .ref(QueueResource.self))],
        problems: [401, 403, 404, 503])

    /// `PUT /v1/shows/{id}/queue`
    static let putQueue = APIOperation(
        "putQueue",
        "Set up or change the show's waiting room (managers); one switched off starts afresh",
        access: .role(.manager, "set up waiting rooms"),
        parameters: [.showId],
        body: .ref(QueueSettingsRequest.self),
        answers: [.json(200, "the room", .ref(QueueResource.self))],
        problems: [401, 403, 404, 409, 413, 422, 503])

    /// `DELETE /v1/shows/{id}/queue`
    static let deleteQueue = APIOperation(
        "deleteQueue",
        "Switch the waiting room off (managers): everyone waiting is let in at once, and holds need no admission",
        access: .role(.manager, "switch waiting rooms off"),
        parameters: [.showId],
        answers: [.json(200, "the room, off", .ref(QueueResource.self))],
        problems: [401, 403, 404, 503])

    /// `POST /v1/shows/{id}/queue`
    static let joinQueue = APIOperation(
        "joinQueue",
        "Join the show's waiting room: an entry id (keep it: it asks for the place and receives the admission) and the place. A room that asks a proof of work takes a solved challenge; a real-name show's room takes the buyer's document (one place a document)",
        parameters: [.showId],
        body: .ref(QueueJoinRequest.self),
        answers: [
            .json(
                201, "in the line", .ref(QueuePlace.self),
                links: [.init(name: "GetQueuePlace", operationID: "getQueuePlace", parameter: "entry", expression: "$response.body#/entry")])
        ],
        problems: [403, 404, 409, 410, 413, 422, 429, 503])

    /// `GET /v1/shows/{id}/queue/challenge`
    static let getQueueChallenge = APIOperation(
        "getQueueChallenge",
        "A proof-of-work challenge for joining the show's waiting room: find decimal digits s such that SHA-256(challenge \".\" s) starts with `bits` zero bits; valid 5 minutes, spent by one join",
        parameters: [.showId],
        answers: [.json(200, "the challenge", .ref(QueueChallengeResource.self))],
        problems: [404, 409, 429, 503])

    /// `POST /v1/shows/{id}/queue/lanes/{lane}/passes`
    static let createLanePasses = APIOperation(
        "createLanePasses",
        "Issue passes into one of the waiting room's priority lanes (managers), to hand to its members (a fan club's): each joins that lane once",
        access: .role(.manager, "issue lane passes"),
        parameters: [.showId, .path("lane", .string(pattern: "^[a-z0-9-]{1,32}$"), example: "\"fanclub\"")],
        body: .ref(QueueLanePassesRequest.self),
        answers: [.json(201, "the passes", .ref(QueueLanePasses.self))],
        problems: [401, 403, 404, 413, 422, 503])

    /// `GET /v1/shows/{id}/queue/draw`
    static let getQueueDraw = APIOperation(
        "getQueueDraw",
        "The opening shuffle or the draw, for anyone to check: the seed's commitment before, then the seed and the entry digests in drawn order (a buyer's digest is the first 40 hex digits of SHA-256(\"seatkit-queue-entry\" U+001F entry))",
        parameters: [.showId],
        answers: [.json(200, "the draw", .ref(QueueDrawResource.self))],
        problems: [404, 503])

    static let entryParameter = Parameter.path("entry", .string(pattern: "^q[0-9a-f]{32}$"), example: "\"q5f0c3d2a9b8e7f6a5b4c3d2e1f0a9b8c\"")

    /// `GET /v1/queue/{entry}`
    static let afterParameter = APIOperation.Parameter.query(
        "after", .integer(minimum: 0, maximum: 9_007_199_254_740_991),
        description: "the revision the last answer gave: an instance behind it reads the room from the store first, so a place never goes back")

    static let getQueuePlace = APIOperation(
        "getQueuePlace",
        "The place in the line now (served from memory; ask every few seconds: a page silent for 30 s gives its place up); once admitted, the admission for Seat-Admission",
        parameters: [
            entryParameter, afterParameter,
        ],
        answers: [.json(200, "the place", .ref(QueuePlace.self))],
        problems: [400, 404, 503])

    /// `GET /v1/queue/{entry}/events`
    static let queuePlaceEvents = APIOperation(
        "queuePlaceEvents",
        "The place as Server-Sent Events (`event: place`, a QueuePlace), sent when it changes; an open stream keeps the place",
        parameters: [entryParameter, afterParameter],
        answers: [.media(200, "event stream", "text/event-stream")],
        problems: [400, 404, 503])
}
