import Foundation

/// wrk (Debian's `wrk`) generates the HTTP load where it can: a C load generator leaves far more of the
/// two cores to the server than Swift client threads would.
enum Wrk {
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") }

    /// Hold 1–4 seats, then release them, on every connection; each wrk thread works its own rows so
    /// holds do not collide. Counts 201s; prints them in `done`.
    static let holdRelease = #"""
        local threads = {}
        local counter = 0
        function setup(thread)
          thread:set("id", #threads)
          table.insert(threads, thread)
        end
        function init(args)
          tokens = {}
          holds = 0
          rows = tonumber(args[1])
          -- Several wrk processes (one per instance) take disjoint sections: args[2] the first, args[3] how many.
          base = tonumber(args[2] or "0")
          sections = tonumber(args[3] or "16")
          -- args[4]: the show (two wrk processes on two shows of two shards).
          show = args[4] or "bench"
        end
        request = function()
          local token = table.remove(tokens)
          if token then
            return wrk.format("DELETE", "/v1/holds/" .. token)
          end
          counter = counter + 1
          local n = 1 + counter % 4
          local section = 101 + base + (id * 7 + counter) % sections
          local row = 1 + (counter * 3 + id * 11) % rows
          local first = 1 + (counter % 2) * 4
          local seats = {}
          for k = 0, n - 1 do seats[#seats + 1] = '"' .. section .. "-" .. row .. "-" .. (first + k) .. '"' end
          return wrk.format("POST", "/v1/shows/" .. show .. "/holds", {["Content-Type"] = "application/json"}, '{"seats":[' .. table.concat(seats, ",") .. ']}')
        end
        response = function(status, headers, body)
          if status == 201 then
            holds = holds + 1
            local token = string.match(body, '"token":"([%w%.]+)"')
            if token then table.insert(tokens, token) end
          end
        end
        function done(summary, latency, requests)
          local total = 0
          for _, t in ipairs(threads) do total = total + t:get("holds") end
          io.write(string.format("HOLDS %d\n", total))
        end
        """#

    /// The cheapest POST: a hold on a show that does not exist, refused with a 404 problem.
    static let refusedPost = #"""
        wrk.method = "POST"
        wrk.body = '{"seats":["101-1-1","101-1-2"]}'
        wrk.headers["Content-Type"] = "application/json"
        """#

    /// Joins a show's waiting room, each request from its own address (X-Forwarded-For, the bench
    /// server trusts 127.0.0.1): every join a new entry. Counts 201s (printed as HOLDS, the figure read).
    static let queueJoin = counted(
        #"""
        function init(args)
          counter = 0
          holds = 0
        end
        request = function()
          counter = counter + 1
          local address = string.format("10.%d.%d.%d", id, math.floor(counter / 250) % 250, counter % 250)
          return wrk.format("POST", "/v1/shows/" .. wrk.path:match("shows/([^/]+)") .. "/queue", {["X-Forwarded-For"] = address})
        end
        response = function(status, headers, body)
          if status == 201 then holds = holds + 1 end
        end
        """#)

    /// A join with a proof of work: each thread walks its half of the solved challenges in the file
    /// given (one JSON body a line), each from its own address; counts the 201s.
    static let queueJoinWithProof = counted(
        #"""
        function init(args)
          bodies = {}
          for line in io.lines(args[1]) do table.insert(bodies, line) end
          counter = 0
          holds = 0
        end
        request = function()
          local share = math.floor(#bodies / 2)
          local k = counter % share
          counter = counter + 1
          local address = string.format("10.%d.%d.%d", id, math.floor(counter / 250) % 250, counter % 250)
          return wrk.format("POST", "/v1/shows/" .. wrk.path:match("shows/([^/]+)") .. "/queue",
            {["X-Forwarded-For"] = address, ["Content-Type"] = "application/json"}, bodies[id * share + k + 1])
        end
        response = function(status, headers, body)
          if status == 201 then holds = holds + 1 end
        end
        """#)

    /// A gate's scans: each connection walks its own share of the ticket codes in the file given, in
    /// then out then in again (each scan a recorded one), with a nonce of its own; counts the greens.
    static let checkIn = counted(
        #"""
        function init(args)
          codes = {}
          for line in io.lines(args[1]) do table.insert(codes, line) end
          counter = 0
          holds = 0
        end
        request = function()
          local share = math.floor(#codes / 2)
          local k = counter % share
          local round = math.floor(counter / share)
          counter = counter + 1
          local code = codes[id * share + k + 1]
          local direction = (round % 2 == 0) and "in" or "out"
          local body = string.format('{"code":"%s","gate":"G%d","direction":"%s","nonce":"bench-%d-%d"}', code, id, direction, id, counter)
          return wrk.format("POST", "/v1/checkin", {["Content-Type"] = "application/json", ["X-Admin-Key"] = "bench-admin-key-0123456789"}, body)
        end
        response = function(status, headers, body)
          if status == 200 and body:find('"result":"ok"', 1, true) then holds = holds + 1 end
        end
        """#)

    /// A waiting page's poll: 50 entries joined first (each from its own address), then
    /// `GET /v1/queue/{entry}` round the entries. Counts 200s.
    static let queuePoll = counted(
        #"""
        function init(args)
          counter = 0
          holds = 0
          entries = {}
        end
        request = function()
          counter = counter + 1
          if #entries < 50 then
            local address = string.format("10.%d.%d.%d", 100 + id, math.floor(counter / 250) % 250, counter % 250)
            return wrk.format("POST", "/v1/shows/" .. wrk.path:match("shows/([^/]+)") .. "/queue", {["X-Forwarded-For"] = address})
          end
          return wrk.format("GET", "/v1/queue/" .. entries[1 + counter % #entries])
        end
        response = function(status, headers, body)
          if status == 201 then
            local entry = string.match(body, '"entry":"(q%x+)"')
            if entry then table.insert(entries, entry) end
          elseif status == 200 then
            holds = holds + 1
          end
        end
        """#)

    /// A script whose threads each count their successes in `holds` (set by `body`'s `init` and
    /// `response`), numbered in `id`; `done` prints the sum as `HOLDS n`, the figure `run` reads.
    static func counted(_ body: String) -> String {
        let setup = #"""
            local threads = {}
            function setup(thread)
              thread:set("id", #threads)
              table.insert(threads, thread)
            end
            """#
        let done = #"""
            function done(summary, latency, requests)
              local total = 0
              for _, t in ipairs(threads) do total = total + t:get("holds") end
              io.write(string.format("HOLDS %d\n", total))
            end
            """#
        return setup + "\n" + body + "\n" + done + "\n"
    }

    struct Result { var requestsPerSecond: Double; var p99: Double; var p50: Double; var holds: Int; var seconds: Double }

    /// Runs wrk for `seconds` with `connections` and returns its figures.
    static func run(port: UInt16, path: String, connections: Int, seconds: Int, script: String?, scriptArguments: [String] = []) -> Result? {
        var arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "--timeout", "5s"]
        var scriptURL: URL?
        if let script {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-wrk-\(getpid()).lua")
            try? script.write(to: url, atomically: true, encoding: .utf8)
            arguments += ["-s", url.path]
            scriptURL = url
        }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        if !scriptArguments.isEmpty { arguments += ["--"] + scriptArguments }
        defer { if let scriptURL { try? FileManager.default.removeItem(at: scriptURL) } }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Reaped here, not with `waitUntilExit`: Foundation's child monitor once left wrk a zombie and the
        // benchmark waiting forever.
        var status: Int32 = 0
        waitpid(p.processIdentifier, &status, 0)
        func number(_ pattern: String) -> String? {
            guard let r = text.range(of: pattern, options: .regularExpression) else { return nil }
            return String(text[r])
        }
        func milliseconds(_ s: String) -> Double {
            let value = Double(s.trimmingCharacters(in: CharacterSet.letters.union(.whitespaces))) ?? 0
            if s.hasSuffix("us") { return value / 1000 }
            if s.hasSuffix("ms") { return value }
            if s.hasSuffix("s") { return value * 1000 }
            return value
        }
        guard let rps = number(#"Requests/sec:\s+[0-9.]+"#).flatMap({ Double($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }) else {
            return nil
        }
        let p99 = number(#"99%\s+[0-9.]+[a-z]+"#).map { milliseconds(String($0.dropFirst(3)).trimmingCharacters(in: .whitespaces)) } ?? 0
        let p50 = number(#"50%\s+[0-9.]+[a-z]+"#).map { milliseconds(String($0.dropFirst(3)).trimmingCharacters(in: .whitespaces)) } ?? 0
        let holds = number(#"HOLDS \d+"#).flatMap { Int($0.dropFirst(6)) } ?? 0
        return Result(requestsPerSecond: rps, p99: p99 / 1000, p50: p50 / 1000, holds: holds, seconds: Double(seconds))
    }
}
