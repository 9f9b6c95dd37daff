import Foundation
import SwitchyardTestSupport
import Testing

/// A TLS server on 127.0.0.1 with a fresh self-signed certificate (made with the `openssl`
/// command), which no client trusts: it takes handshakes and answers nothing. Stopped by
/// ``stop()``.
final class TLSServer {
    let port: Int
    private let process: Process
    private let directory: TemporaryDirectory

    private static let script = """
        import os, socket, ssl, sys, threading, time
        def exit_with_parent(parent):
            while os.getppid() == parent:
                time.sleep(0.2)
            os._exit(0)
        threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        print("PORT", listener.getsockname()[1], flush=True)
        while True:
            connection, _ = listener.accept()
            try:
                with context.wrap_socket(connection, server_side=True) as tls:
                    tls.recv(1)
            except (ssl.SSLError, OSError):
                pass
        """

    /// Makes the certificate and starts the server. Cancels the test (a skip) when openssl or
    /// python3 is missing, unless `CI` is set: then it fails.
    static func start() async throws -> TLSServer {
        let openssl = "/usr/bin/openssl"
        for (tool, package) in [(openssl, "openssl"), (ScriptedServer.python, "python3")]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw ServerError("\(tool) is missing: install the Debian package \(package)") }
            try Test.cancel("needs \(tool): install the Debian package \(package)")
        }
        let directory = try TemporaryDirectory()
        let (certificate, key) = (directory.path("cert.pem"), directory.path("key.pem"))
        let make = Process()
        make.executableURL = URL(fileURLWithPath: openssl)
        make.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", certificate,
        ]
        make.standardError = FileHandle.nullDevice
        try make.run()
        guard make.waitForExitStatus() == 0 else { throw ServerError("openssl could not make a certificate") }
        let (process, port) = try await startAnnouncingPort(ScriptedServer.python, ["-c", script, certificate, key], name: "the TLS server")
        return TLSServer(port: port, process: process, directory: directory)
    }

    private init(port: Int, process: Process, directory: TemporaryDirectory) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    deinit {
        stop()
    }

    /// Kills the server and waits for it to exit; later calls do nothing.
    func stop() {
        process.signalAndWait(SIGKILL)
    }
}
