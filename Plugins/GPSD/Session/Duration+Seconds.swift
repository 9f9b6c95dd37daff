extension Duration {
    /// The duration in seconds, as written in payloads (`"retryIn": 0.5`).
    var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
