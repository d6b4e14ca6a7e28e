import SeatDomain

/// The room and the store: what this instance decided, as rows to write (`takeWrites`, `record`),
/// and what the store says, other instances' decisions included (`apply`). Applying a row twice, or a
/// row this room wrote itself, changes nothing: the store's word is the same as the room's.
extension WaitingRoom {
    /// Life signs are written back when ours is this much newer than the store's: a page asking every
    /// two seconds costs a write each 10 s, and another instance still sees it alive within the 30 s.
    static let seenWriteMilliseconds: Int64 = 10_000

    /// The room's own row, as the store keeps it.
    public func record() -> QueueRecord {
        QueueRecord(
            showID: showID, createdAt: createdAt, opensAt: settings.opensAt, admitPerMinute: settings.admitPerMinute,
            earlyMinutes: settings.earlyMinutes, admissionMinutes: settings.admissionMinutes, maxEntriesPerAddress: settings.maxEntriesPerAddress,
            maxEntriesPerNetwork: settings.maxEntriesPerNetwork, maxJoinsPerSecond: settings.maxJoinsPerSecond, openedAt: shuffle?.openedAt,
            earlyCount: shuffle?.order.count ?? 0, credit: credit, lastAdvance: lastAdvance, soldOut: isSoldOut,
            proofOfWorkBits: settings.proofOfWorkBits, drawAt: settings.drawAt, drawWinners: settings.drawWinners,
            lanes: QueueLane.text(settings.lanes))
    }

    /// The entries this room changed since the last call, and those whose pages asked well after the
    /// store last heard of them; each as the store keeps it.
    public mutating func takeWrites() -> [QueueEntryRecord] {
        var out: [QueueEntryRecord] = []
        for k in entries.indices where dirty.contains(k) || entries[k].lastSeen - entries[k].storedSeen >= Self.seenWriteMilliseconds {
            entries[k].storedSeen = entries[k].lastSeen
            out.append(row(entries[k]))
        }
        dirty.removeAll(keepingCapacity: true)
        return out
    }

    /// Just the entries changed by decisions (a join writes its own row, not every page's life sign).
    public mutating func takeDecisions() -> [QueueEntryRecord] {
        let out = dirty.sorted().map { k in
            entries[k].storedSeen = entries[k].lastSeen
            return row(entries[k])
        }
        dirty.removeAll(keepingCapacity: true)
        return out
    }

    func row(_ e: Entry) -> QueueEntryRecord {
        QueueEntryRecord(
            key: e.id, address: e.address, seq: e.seq, arrivedAt: e.arrivedAt, state: e.state.rawValue, place: e.place,
            admittedUntil: e.admittedUntil, used: e.used, lastSeen: e.lastSeen, identity: e.identity, proof: e.proof,
            lane: laneName(e.lane), pass: e.pass)
    }

    /// Sets the arrival number the store gave a new entry.
    public mutating func numberNew(_ seq: Int64) {
        for k in dirty where entries[k].seq == 0 { entries[k].seq = seq }
    }

    /// Takes in what the store holds: the room's shared state and entries as written (by any instance).
    /// A life sign newer here than in the store is kept.
    /// - Complexity: O(rows · log n).
    public mutating func apply(_ changes: QueueChanges) {
        // The lanes first: an entry written in a lane the same changes add is read in that lane.
        if let r = changes.room { changeLanes(to: QueueLane.parse(r.lanes)) }
        for row in changes.entries { apply(row) }
        guard let r = changes.room else { return }
        settings = QueueSettings(r)
        credit = r.credit
        lastAdvance = r.lastAdvance
        isSoldOut = r.soldOut
        if shuffle == nil, let opened = r.openedAt {
            shuffle = ShuffleRecord(openedAt: opened, seed: seed, order: line.prefix(r.earlyCount).filter { $0 >= 0 }.map { entries[$0].id })
        }
    }

    /// The room's lanes become `lanes`: each entry keeps its lane by name (one no longer there waits in
    /// the public line), and the lanes' counts are made anew.
    /// - Complexity: O(n log n) when they change, O(lanes) when not.
    mutating func changeLanes(to lanes: [QueueLane]) {
        guard lanes != settings.lanes else { return }
        let names = entries.map { $0.lane == 0 || $0.lane > settings.lanes.count ? nil : settings.lanes[$0.lane - 1].name }
        settings.lanes = lanes
        for k in entries.indices { entries[k].lane = settings.laneIndex(names[k]) }
        recountLanes()
    }

    /// The name of lane `index` (nil: the public line).
    func laneName(_ index: Int) -> String? { index == 0 || index > settings.lanes.count ? nil : settings.lanes[index - 1].name }

    mutating func apply(_ row: QueueEntryRecord) {
        let state = State(rawValue: row.state) ?? .left
        let k: Int
        if let known = index[row.key] {
            k = known
        } else {
            k = entries.count
            entries.append(
                Entry(
                    id: row.key, address: row.address, arrivedAt: row.arrivedAt, state: .left, lastSeen: row.lastSeen, identity: row.identity, proof: row.proof,
                    lane: settings.laneIndex(row.lane), pass: row.pass)
            )
            index[row.key] = k
        }
        if let place = row.place { seat(k, at: place) }
        count(k, -1)
        // The store's lane is the entry's (an instance that read it before knowing the lane has it right now).
        entries[k].lane = settings.laneIndex(row.lane)
        entries[k].state = state
        entries[k].place = row.place
        entries[k].admittedUntil = row.admittedUntil
        entries[k].used = row.used
        entries[k].seq = row.seq
        entries[k].lastSeen = max(entries[k].lastSeen, row.lastSeen)
        entries[k].storedSeen = max(entries[k].storedSeen, row.lastSeen)
        if let proof = row.proof { proofs.insert(proof) }
        if let pass = row.pass { passes.insert(pass) }
        count(k, 1)
    }

    /// After a restart every page still waiting gets a fresh 30 s: the time the server was away is not
    /// held against buyers whose pages could not reach it.
    public mutating func forgive(now: Int64) {
        for k in entries.indices where entries[k].state == .early || entries[k].state == .waiting {
            entries[k].lastSeen = max(entries[k].lastSeen, now)
        }
    }
}
