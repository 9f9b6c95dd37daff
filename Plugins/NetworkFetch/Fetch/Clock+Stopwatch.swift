extension Clock where Duration == Swift.Duration {
    /// A function returning the time elapsed on this clock since the call.
    func stopwatch() -> @Sendable () -> Swift.Duration {
        let start = now
        return { start.duration(to: self.now) }
    }
}
