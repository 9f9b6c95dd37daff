/// The state of publishing from the journal, held with the bridge's machine under its lock.
struct Forwarding: Sendable {
    var progress: ForwardProgress
    var source = ForwardSource()
    var pacer: DrainPacer
    /// The most actions handed to the machine and not yet settled: twice the window, so the
    /// next publishes are ready when acknowledgements free the window.
    let feedLimit: Int
    /// Actions through this id were journaled before this start: an earlier run may have
    /// published them, so JetStream calling them duplicates is expected.
    let earlierRunsThrough: UInt64

    /// Whether the machine can take `count` more actions now.
    func hasRoom(in machine: BridgeMachine, for count: Int = 1) -> Bool {
        machine.isReady && machine.heldCount + count <= feedLimit
    }

    /// How many actions the machine can take now.
    func room(in machine: BridgeMachine) -> Int {
        machine.isReady ? max(0, feedLimit - machine.heldCount) : 0
    }
}
