/// Every open and close of the server's resources, in the order they happened: what the
/// sample's checks read. An actor, since 200 requests' teardowns write to it at once.
actor ResourceLedger {
    enum Resource: Hashable, Sendable, CustomStringConvertible {
        case pool
        case transaction(request: Int)
        case logger(request: Int)

        var description: String {
            switch self {
            case .pool: "the pool"
            case .transaction(let request): "transaction #\(request)"
            case .logger(let request): "logger #\(request)"
            }
        }

        var request: Int? {
            switch self {
            case .pool: nil
            case .transaction(let request), .logger(let request): request
            }
        }
    }

    enum Event: Hashable, Sendable {
        case opened(Resource)
        case closed(Resource)
    }

    private(set) var events: [Event] = []

    func record(_ event: Event) { events.append(event) }

    /// The most requests whose transactions were open at the same time.
    var peakOpenRequests: Int {
        var open = 0
        var peak = 0
        for event in events {
            if case .opened(.transaction) = event { open += 1 }
            if case .closed(.transaction) = event { open -= 1 }
            peak = max(peak, open)
        }
        return peak
    }

    /// What request `id`'s scope has torn down so far, in order.
    func closed(byRequest id: Int) -> [Resource] {
        events.compactMap { event in
            guard case .closed(let resource) = event, resource.request == id else { return nil }
            return resource
        }
    }
}

/// The ledger read after shutdown: each served request's values torn down once, in reverse
/// creation order, and one pool, opened once and closed after every request.
struct TeardownAudit {
    let requests: Int
    let transactionsClosedOnce: Int
    let loggersClosedOnce: Int
    let requestsInReverseOrder: Int
    let poolsOpened: Int
    let poolClosedLast: Bool
    let problems: [String]

    init(of events: [ResourceLedger.Event], served ids: [Int]) {
        var opened: [Int: [ResourceLedger.Resource]] = [:]
        var closed: [Int: [ResourceLedger.Resource]] = [:]
        for event in events {
            switch event {
            case .opened(let resource):
                if let id = resource.request { opened[id, default: []].append(resource) }
            case .closed(let resource):
                if let id = resource.request { closed[id, default: []].append(resource) }
            }
        }
        func closedOnce(_ resource: (Int) -> ResourceLedger.Resource) -> Int {
            ids.count { id in closed[id, default: []].count { $0 == resource(id) } == 1 }
        }
        requests = ids.count
        transactionsClosedOnce = closedOnce { .transaction(request: $0) }
        loggersClosedOnce = closedOnce { .logger(request: $0) }
        requestsInReverseOrder = ids.count { id in
            opened[id, default: []].count == 2 && closed[id] == opened[id]?.reversed()
        }
        poolsOpened = events.count { $0 == .opened(.pool) }
        poolClosedLast = events.last == .closed(.pool) && events.count { $0 == .closed(.pool) } == 1

        var problems: [String] = []
        if Set(ids).count != ids.count { problems.append("request ids repeat") }
        if transactionsClosedOnce != requests {
            problems.append("\(requests - transactionsClosedOnce) transactions were not torn down exactly once")
        }
        if loggersClosedOnce != requests {
            problems.append("\(requests - loggersClosedOnce) loggers were not torn down exactly once")
        }
        if requestsInReverseOrder != requests {
            problems.append("\(requests - requestsInReverseOrder) requests tore down out of reverse creation order")
        }
        if poolsOpened != 1 { problems.append("\(poolsOpened) pools were opened, not 1") }
        if !poolClosedLast { problems.append("the pool was not closed once, after everything else") }
        let strays = Set(opened.keys).union(closed.keys).subtracting(ids)
        if !strays.isEmpty { problems.append("values of requests never served: \(strays.sorted())") }
        self.problems = problems
    }

    /// The line CI checks.
    var summary: String {
        let order = requestsInReverseOrder == requests ? "in reverse creation order" : "NOT in reverse creation order"
        let pools = poolsOpened == 1 ? "1 pool" : "\(poolsOpened) pools"
        let shutdown = poolClosedLast ? "closed at shutdown" : "NOT closed last"
        return "served \(requests) requests: \(transactionsClosedOnce) transactions and \(loggersClosedOnce) loggers "
            + "torn down once each, \(order); \(pools) opened and \(shutdown)"
    }
}
