import RiveSyncJSON
import RiveSyncModel

/// The `inspect --text` rendering: view models (properties, instances, artboard-scoped
/// instances), enums, artboards (view model, state machines) and assets, indented by two
/// spaces per level.
struct SchemaTextTree {
    let schema: FileSchema
    private var lines: [String] = []

    init(schema: FileSchema) {
        self.schema = schema
    }

    func render() -> String {
        var tree = self
        tree.renderAll()
        return tree.lines.joined(separator: "\n") + "\n"
    }

    private mutating func renderAll() {
        section("view models", schema.viewModels.isEmpty)
        for viewModel in schema.viewModels { renderViewModel(viewModel) }
        section("enums", schema.enums.isEmpty)
        for item in schema.enums {
            line(1, "\(item.name): \(item.values.joined(separator: ", "))")
        }
        section("artboards", schema.artboards.isEmpty)
        for artboard in schema.artboards {
            line(1, artboard.name + (artboard.viewModelName.map { " (view model \($0))" } ?? ""))
            let machines = artboard.stateMachines.map { $0 == artboard.defaultStateMachine ? "\($0) (default)" : $0 }
            line(2, "state machines: " + (machines.isEmpty ? "none" : machines.joined(separator: ", ")))
        }
        section("assets", schema.assets.isEmpty)
        for asset in schema.assets { line(1, "\(asset.name) (\(asset.kind.rawValue))") }
    }

    private mutating func renderViewModel(_ viewModel: ViewModelSchema) {
        line(1, viewModel.name + (viewModel.isGlobal ? " (global)" : ""))
        line(2, viewModel.properties.isEmpty ? "properties: none" : "properties")
        for property in viewModel.properties {
            let meta = property.enumName ?? property.viewModelName
            line(3, "\(property.name): \(property.type.rawValue)" + (meta.map { " (\($0))" } ?? ""))
        }
        renderInstances("instances", viewModel.instances, of: viewModel)
        if !viewModel.artboardScopedInstances.isEmpty {
            renderInstances("artboard-scoped instances", viewModel.artboardScopedInstances, of: viewModel)
        }
    }

    private mutating func renderInstances(_ title: String, _ instances: [AuthoredInstance], of viewModel: ViewModelSchema) {
        line(2, instances.isEmpty ? "\(title): none" : title)
        for (index, instance) in instances.enumerated() {
            line(3, "[\(index)] \(quoted(instance.name))")
            for property in viewModel.properties {
                guard let value = instance.values[property.name] else { continue }
                line(4, "\(property.name) = \(text(of: value))")
            }
        }
    }

    private func text(of value: AuthoredValue) -> String {
        switch value {
        case .number(let number): return JSONValue.number(Double(number)).jsonText
        case .string(let string): return quoted(string)
        case .boolean(let bool): return bool ? "true" : "false"
        case .color(let argb): return ColorText.format(argb)
        case .enumValue(let name): return name
        case .trigger(let count): return "\(count)"
        case .symbolListIndex(let index): return "\(index)"
        case .viewModel(let reference): return reference.map(text(of:)) ?? "null"
        case .list(let items): return "[" + items.map(text(of:)).joined(separator: ", ") + "]"
        case .asset(let name), .artboard(let name): return name ?? "none"
        }
    }

    private func text(of reference: InstanceReference) -> String {
        let instances = schema.viewModels.first { $0.name == reference.viewModel }?.instances ?? []
        let name = instances.indices.contains(reference.index) ? " " + quoted(instances[reference.index].name) : ""
        return "\(reference.viewModel)[\(reference.index)]\(name)"
    }

    private func quoted(_ text: String) -> String { JSONValue.string(text).jsonText }

    private mutating func section(_ title: String, _ isEmpty: Bool) {
        lines.append(isEmpty ? "\(title): none" : title)
    }

    private mutating func line(_ depth: Int, _ text: String) {
        lines.append(String(repeating: "  ", count: depth) + text)
    }
}
