/// Something a bus runs beside its plugins for as long as it runs: a door such as the control
/// socket or the HTTP API (the `SwitchyardDoors` module has them), handed to
/// ``Bus/init(configuration:registry:services:serving:clock:log:)``.
///
/// The bus starts its services in the order given, before the first plugin starts, and stops
/// them in reverse order after the last plugin stopped and the journal closed — so a client
/// sees every action the bus took. The bus itself builds no server.
public protocol BusService: Sendable {
    /// Starts serving `bus`, which is starting (or, for a step-by-step replay, built and never
    /// run). Returns where the service can be reached, as the bus's ready line names it
    /// (`control socket /data/control.sock`), or `nil` when it serves nothing for this bus.
    /// - Throws: ``BusError`` saying what could not be opened; the bus then stops the services
    ///   started before this one and does not start.
    func start(on bus: Bus) throws(BusError) -> String?

    /// Stops serving, letting clients take what was already sent them for up to `grace`.
    /// Called once for every service whose ``start(on:)`` returned.
    func stop(grace: Duration) async

    /// Adds the service's counters to the bus's (``BusStatistics/control``,
    /// ``BusStatistics/http``). Default: adds nothing.
    func report(into statistics: inout BusStatistics)
}

extension BusService {
    /// Adds nothing: a service without counters.
    public func report(into statistics: inout BusStatistics) {}
}
