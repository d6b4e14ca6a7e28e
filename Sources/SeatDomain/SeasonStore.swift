/// A season (#53): shows sold together, the same seat or place in each. Its sales are ordinary sales
/// of each show (one a show, all or none), linked by their ids (`sp_…@KEY`, the season's `se_KEY`), so
/// the season table holds only what the season is: its name and its shows.
public struct SeasonRecord: Sendable, Hashable {
    /// `se_…` (with the shard's tag on a store of shards, as a hold's id has it).
    public var id: String
    public var name: String
    /// The shows, earliest first. Every one is in the same venue and currency, on the same shard.
    public var shows: [String]
    /// The season this one is a part of (a partial season: a subset of its shows), or nil.
    public var parent: String?
    /// Unix milliseconds.
    public var createdAt: Int64
    public var operatorName: String

    public init(id: String, name: String, shows: [String], parent: String?, createdAt: Int64, operatorName: String) {
        self.id = id; self.name = name; self.shows = shows; self.parent = parent; self.createdAt = createdAt; self.operatorName = operatorName
    }

    /// What a season's sale ids carry after the `@`: the season's id less its `se_`.
    public var key: Substring { id.dropFirst(3) }
}

/// Where seasons are kept (both stores; on a store of shards, the shard of its shows). A season is
/// written once and never changed, so an instance may keep what it read.
public protocol SeasonStore: AnyObject, Sendable {
    func insertSeason(_ season: SeasonRecord) throws
    /// Every season, oldest first.
    func allSeasons() throws -> [SeasonRecord]
    func season(id: String) throws -> SeasonRecord?
}
