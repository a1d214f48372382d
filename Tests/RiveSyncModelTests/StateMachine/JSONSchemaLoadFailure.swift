import RiveSyncModel

/// Why a JSON schema fails to load (its `invalidData` reason, else the error), or "loaded": one
/// view model `V` with the properties `properties` (a JSON array), the file's `converters` (a
/// JSON array) and an artboard `A` of `V` with the one state machine `machine` (a JSON object).
/// For tests of the typed errors that name their JSON path.
func jsonSchemaLoadFailure(properties: String, converters: String = "[]", machine: String) -> String {
    let text = """
        {"viewModels": [{"name": "V", "properties": \(properties)}],
         "converters": \(converters),
         "artboards": [{"name": "A", "viewModel": "V", "stateMachines": [\(machine)]}]}
        """
    do {
        _ = try FileSchema(jsonText: text)
        return "loaded"
    } catch {
        if case .invalidData(let reason) = error { return reason }
        return "\(error)"
    }
}
