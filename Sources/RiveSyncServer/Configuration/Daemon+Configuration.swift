import Foundation
import RiveSyncCore
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncToolSupport
import RiveSyncTransport

extension Daemon {
    /// `rivesyncd --check-config`: reads the configuration file, then loads what it names the way
    /// a start would (files, instances, state machines, tokens, TLS files) without listening,
    /// and checks that the state directory can be used (without making it), with
    /// `environment`'s variables applied. A wrong key does not stop the check: the entries
    /// that are right are still loaded, and what only follows from a wrong entry (a state
    /// machine's global naming an instance left out) is not reported again, so one run names
    /// every independent problem.
    /// - Returns: every problem, each starting with its key path; empty when the file is valid.
    public static func check(configurationPath path: String, environment: ConfigurationEnvironment = ConfigurationEnvironment([:]))
        -> [String]
    {
        var configuration: DaemonConfiguration
        var found = ConfigurationProblems()
        do { configuration = try DaemonCommandLine.read(path, environment: environment, &found) } catch { return error.lines }
        // The cluster section is checked without contacting Redis.
        var problems = found.all.flatMap(\.lines) + clusterProblems(configuration)
        if let directory = configuration.stateDirectory, let problem = DurableFile.stateDirectoryProblem(directory) {
            problems.append("stateDirectory: \(problem)")
        }
        configuration.stateDirectory = nil
        var readable = true
        for (key, file) in [("tls.certificate", configuration.tlsCertificate), ("tls.key", configuration.tlsKey)] {
            guard let file else { continue }
            do { _ = try FileContents.bytes(atPath: file) } catch {
                problems.append("\(key): \(file): \(error)")
                readable = false
            }
        }
        if readable, let certificate = configuration.tlsCertificate, let key = configuration.tlsKey,
            let problem = CertificatePair.problem(certificate: certificate, key: key)
        {
            problems.append("tls: \(problem.detail)")
        }
        // The tokens file on its own, so that the files are checked even when it is bad.
        if let tokens = configuration.auth.tokensFile {
            do { _ = try TokenTable.read(tokens) } catch { problems.append("auth.tokensFile: \(error)") }
            configuration.auth.tokensFile = nil
        }
        configuration.cluster = nil
        do { _ = try Daemon(configuration: configuration, log: Log(minimum: .error)) } catch let error as ConfigurationError {
            problems += error.lines
        } catch {
            problems.append("\(error)")
        }
        return problems
    }

    /// Loads the configured files, instances and state machines that the state directory did
    /// not already restore (the restored state wins; new entries are added, and a configured
    /// entry that differs from its restored one is logged as a warning). Every problem is
    /// collected with its key path; entries of a file that did not load are skipped, and a
    /// state machine's global naming an instance that could not be created is not reported
    /// again (its other keys are still checked).
    func loadConfiguredState() throws(ConfigurationError) {
        let configuration = context.configuration
        var problems = ConfigurationProblems()
        var failedFiles = configuration.leftOut.files
        var failedInstances = configuration.leftOut.instances
        let leftOut = configuration.leftOut
        // A cluster node loads only its shards' files (and not those restored from snapshots).
        let elsewhere = filesNotConfiguredHere()
        for (i, entry) in configuration.files.enumerated() where !elsewhere.contains(entry.name) {
            let here = "files[\(leftOut.position(i, in: "files"))]"
            problems.check { () throws(ConfigurationError) in
                do throws(ConfigurationError) {
                    try loadFile(entry, index: i, here: here)
                } catch {
                    failedFiles.insert(entry.name)
                    throw error
                }
            }
        }
        for (i, entry) in configuration.instances.enumerated() where !elsewhere.contains(entry.file) {
            guard !failedFiles.contains(entry.file) else {
                failedInstances.insert(entry.name)
                continue
            }
            problems.check { () throws(ConfigurationError) in
                do throws(ConfigurationError) {
                    try createInstance(entry, here: "instances[\(leftOut.position(i, in: "instances"))]")
                } catch {
                    failedInstances.insert(entry.name)
                    throw error
                }
            }
        }
        for (i, entry) in configuration.stateMachines.enumerated()
        where !failedFiles.contains(entry.file) && !elsewhere.contains(entry.file) {
            let failed = failedInstances
            problems.check { () throws(ConfigurationError) in
                try createStateMachine(
                    entry, here: "stateMachines[\(leftOut.position(i, in: "stateMachines"))]", skippingGlobalsOf: failed)
            }
        }
        try problems.throwIfAny()
    }

    private func loadFile(_ entry: DaemonConfiguration.FileEntry, index: Int, here: String) throws(ConfigurationError) {
        let schema: FileSchema
        do { schema = try Self.readSchema(entry) } catch {
            throw .invalid("\(here).\(entry.path == nil ? "schema" : "path"): \(Self.reason(error))")
        }
        if let restored = context.directory.file(entry.name) {
            let worker = workers[restored.worker]
            let kept = worker.host.sync { worker.files[entry.name]?.schema }
            if kept != schema {
                overridden(here, "the state directory keeps file '\(entry.name)' as it was first loaded; the configured file differs")
            }
            return
        }
        guard let location = placeConfiguredFile(entry, index: index) else {
            throw .invalid("\(here).name: '\(entry.name)' appears twice")
        }
        let worker = workers[location.worker]
        do { try worker.host.sync { try worker.loadDurably(schema, as: entry.name, number: location.number) } } catch {
            throw .invalid("\(here): \(Self.reason(error))")
        }
    }

    private func createInstance(_ entry: DaemonConfiguration.InstanceEntry, here: String) throws(ConfigurationError) {
        guard let location = context.directory.file(entry.file) else { throw .invalid("\(here).file: no file '\(entry.file)'") }
        let worker = workers[location.worker]
        if context.directory.target(entry.name) != nil {
            // A name held by another kind of target resolves to nil: reported below as a change of kind.
            let kept = worker.host.sync { () -> String? in
                guard let runtime = worker.files[entry.file], let id = try? runtime.target(entry.name).instance(in: .main) else {
                    return nil
                }
                return runtime.store[id]?.viewModel
            }
            if kept != entry.viewModel {
                overridden(
                    here,
                    "the state directory keeps instance '\(entry.name)' of view model '\(kept ?? "?")'; the configuration asks for '\(entry.viewModel)'"
                )
            }
            return
        }
        do {
            try worker.host.sync { () throws in
                let source: InstanceSource =
                    entry.instance.map { .name($0, from: .name(entry.viewModel)) } ?? .viewModelDefault(from: .name(entry.viewModel))
                guard case .instance(let instance, _) = try worker.commitNow(.createInstance(source), file: entry.file) else { return }
                try worker.publish(instance, as: entry.name, file: entry.file)
            }
        } catch {
            throw .invalid("\(here)\(Self.key(of: error, instance: true)): \(Self.reason(error))")
        }
    }

    private func createStateMachine(
        _ entry: DaemonConfiguration.StateMachineEntry, here: String, skippingGlobalsOf failedInstances: Set<String>
    ) throws(ConfigurationError) {
        guard let location = context.directory.file(entry.file) else { throw .invalid("\(here).file: no file '\(entry.file)'") }
        let worker = workers[location.worker]
        if context.directory.target(entry.name) != nil {
            // A target this worker does not hold resolves to nil: reported below.
            let kept = worker.host.sync { () -> (record: WorkerShell.TargetRecord, kind: TargetKind)? in
                guard let record = worker.targets[entry.name], let target = try? worker.files[entry.file]?.target(entry.name) else {
                    return nil
                }
                return (record, target.kind)
            }
            if let kept {
                var differences: [String] = []
                if kept.record.manual != entry.manual { differences.append("mode \(kept.record.manual ? "manual" : "auto")") }
                if kept.record.rate != entry.rate { differences.append("rate \(kept.record.rate)") }
                if case .stateMachine(let artboard, let machine) = kept.kind {
                    if let wanted = entry.artboard, wanted != artboard { differences.append("artboard '\(artboard)'") }
                    if let wanted = entry.stateMachine, wanted != machine { differences.append("state machine '\(machine)'") }
                } else {
                    differences.append("a published instance")
                }
                if !differences.isEmpty {
                    overridden(here, "the state directory keeps '\(entry.name)' with \(differences.joined(separator: ", "))")
                }
            }
            return
        }
        var problem: ConfigurationError?
        worker.host.sync {
            var globals: [GlobalBinding] = []
            // An instance that does not resolve is the typed problem below.
            for (name, published) in entry.globals.sorted(by: { $0.key < $1.key }) where !failedInstances.contains(published) {
                guard let target = worker.targets[published], target.file == entry.file,
                    let instance = try? worker.files[entry.file]!.target(published).instance(in: .main)
                else {
                    problem = .invalid("\(here).globals.\(name): no published instance '\(published)' in file '\(entry.file)'")
                    return
                }
                globals.append(GlobalBinding(name: name, instance: instance))
            }
            do {
                _ = try worker.createStateMachine(
                    StateMachineRequest(
                        file: entry.file, name: entry.name, artboard: entry.artboard, stateMachine: entry.stateMachine, globals: globals,
                        manual: entry.manual, rate: entry.rate),
                    grants: .everything)
            } catch {
                problem = .invalid("\(here)\(Self.key(of: error, instance: false)): \(Self.reason(error))")
            }
        }
        if let problem { throw problem }
    }

    /// The configuration key a load error is about (`.artboard`, `.viewModel`, …), or "".
    private static func key(of error: any Error, instance: Bool) -> String {
        switch WireError(error).code {
        case .invalidArtboard: return ".artboard"
        case .invalidStateMachine: return ".stateMachine"
        case .invalidViewModel: return ".viewModel"
        case .invalidViewModelInstance: return ".instance"
        case .targetExists: return ".name"
        case .invalidGlobalViewModelName, .duplicateGlobalViewModelInstance, .incompatibleInstance: return ".globals"
        default: return ""
        }
    }

    /// A load error's one-line reason (never a dump of the error value).
    private static func reason(_ error: any Error) -> String {
        if let error = error as? ConfigurationError { return error.description }
        if let error = error as? PersistenceError { return "\(error)" }
        return WireError(error).message
    }

    /// Logs that the state directory wins over a changed configuration entry.
    private func overridden(_ here: String, _ message: String) {
        context.log(.warning, "configuration overridden by the state directory", [("key", here), ("detail", message)])
    }
}
