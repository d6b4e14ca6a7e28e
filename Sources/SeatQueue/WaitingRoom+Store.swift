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
            lane: e.lane == 0 ? nil : settings.lanes[e.lane - 1].name, pass: e.pass)
    }

    /// Sets the arrival number the store gave a new entry.
    public mutating func numberNew(_ seq: Int64) {
        for k in dirty where entries[k].seq == 0 { entries[k].seq = seq }
    }

    /// Takes in what the store holds: the room's shared state and entries as written (by any instance).
    /// A life sign newer here than in the store is kept.
    /// - Complexity: O(rows · log n).
    public mutating func apply(_ changes: QueueChanges) {
        for row in changes.entries { apply(row) }
        guard let r = changes.room else { return }
        let lanes = settings.lanes
        settings = QueueSettings(r)
        if settings.lanes != lanes { recountLanes() }
        credit = r.credit
        lastAdvance = r.lastAdvance
        isSoldOut = r.soldOut
        if shuffle == nil, let opened = r.openedAt {
            shuffle = ShuffleRecord(openedAt: opened, seed: seed, order: line.prefix(r.earlyCount).filter { $0 >= 0 }.map { entries[$0].id })
        }
    }

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
