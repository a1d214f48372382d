extension FileSchema {
    /// A data bind's source path (view-model index, then property indices) as a property path:
    /// relative to the view model named `home` when it starts there, else `@Name/…`; `#n`
    /// where an id leads nowhere. The JSON schema writers' one form of a source path.
    func sourcePathText(_ ids: [Int], home: String? = nil) -> String {
        guard let first = ids.first, viewModels.indices.contains(first) else { return ids.map { "#\($0)" }.joined(separator: "/") }
        var viewModel = viewModels[first]
        var segments: [String] = viewModel.name == home ? [] : ["@" + PropertyPath.escape(viewModel.name)]
        for id in ids.dropFirst() {
            guard viewModel.properties.indices.contains(id) else {
                segments.append("#\(id)")
                continue
            }
            let property = viewModel.properties[id]
            segments.append(PropertyPath.escape(property.name))
            if let next = property.viewModelName, let nested = viewModels.first(where: { $0.name == next }) { viewModel = nested }
        }
        return segments.joined(separator: "/")
    }
}
