extension Array where Element == any BusService {
    /// The doors `switchyard run` serves, for ``Bus/init(configuration:registry:services:serving:clock:log:)``:
    /// the control socket (unless `controlSocket` is `false`; default `true`) with `controlLimits`
    /// and the replay `steps` its `step` requests give (see ``ControlDoor/init(limits:steps:)``),
    /// then HTTP when the configuration sets `bus.http`.
    ///
    /// ```swift
    /// let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: .doors())
    /// ```
    public static func doors(controlSocket: Bool = true, controlLimits: ControlLimits = ControlLimits(),
                             steps: ReplaySteps? = nil) -> [any BusService] {
        (controlSocket ? [ControlDoor(limits: controlLimits, steps: steps)] : []) + [HTTPDoor()]
    }
}
