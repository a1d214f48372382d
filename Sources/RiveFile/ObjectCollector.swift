import RiveSyncModel

/// Groups the flat object stream by owner, the way the runtime's import stack does: each new
/// object attaches to the latest object of the type that owns it (`RIV-FORMAT.md` §4).
struct ObjectCollector {
    var file = RawFile()
    private let bytes: ArraySlice<UInt8>
    private var typeKey = 0
    private var fields = ObjectFields()
    private var latestViewModel: Int?
    private var latestInstance: Int?
    /// (instance, value) of the latest list value.
    private var latestList: (instance: Int, value: Int)?
    private var latestEnum: Int?
    private var latestArtboard: Int?

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// Starts an object; returns whether its properties are worth keeping.
    mutating func begin(typeKey: Int) -> Bool {
        self.typeKey = typeKey
        fields.removeAll()
        return Self.isKept(typeKey)
    }

    /// Records one property of the current object (only called for kept types).
    mutating func add(key: Int, value: FieldValue) {
        fields.append(key: key, value: value)
    }

    /// Finishes the current object and files it under its owner.
    mutating func end() {
        switch typeKey {
        case TypeKey.viewModel:
            let type = fields.index(PropertyKey.viewModelType, default: 0)
            file.viewModels.append(RawViewModel(name: text(PropertyKey.viewModelComponentName), isGlobal: type == 2))
            latestViewModel = file.viewModels.count - 1
        case TypeKey.viewModelInstance:
            file.instances.append(
                RawInstance(
                    name: text(PropertyKey.componentName),
                    viewModelIndex: fields.index(PropertyKey.instanceViewModelId, default: 0),
                    isArtboardScoped: !file.artboards.isEmpty))
            latestInstance = file.instances.count - 1
        case TypeKey.viewModelInstanceListItem:
            guard let (instance, value) = latestList else { return }
            file.instances[instance].values[value].listItems.append(
                RawListItem(
                    viewModelIndex: fields.index(PropertyKey.listItemViewModelId, default: .max),
                    instanceIndex: fields.index(PropertyKey.listItemInstanceId, default: .max)))
        case TypeKey.dataEnum, TypeKey.dataEnumCustom:
            file.enums.append(EnumSchema(name: text(PropertyKey.enumName), values: []))
            latestEnum = file.enums.count - 1
        case TypeKey.dataEnumSystem:
            latestEnum = nil
        case TypeKey.dataEnumValue:
            guard let latestEnum else { return }
            let value = text(PropertyKey.enumValueValue)
            file.enums[latestEnum].values.append(value.isEmpty ? text(PropertyKey.enumValueKey) : value)
        case TypeKey.artboard:
            file.artboards.append(
                RawArtboard(
                    name: text(PropertyKey.componentName),
                    viewModelIndex: fields.index(PropertyKey.artboardViewModelId, default: .max),
                    defaultStateMachineIndex: fields.index(PropertyKey.artboardDefaultStateMachineId, default: .max)))
            latestArtboard = file.artboards.count - 1
        case TypeKey.stateMachine:
            guard let latestArtboard else { return }
            file.artboards[latestArtboard].stateMachines.append(text(PropertyKey.animationName))
        default:
            endTypedObject()
        }
    }

    private mutating func endTypedObject() {
        if let type = TypeKey.propertyType(typeKey) {
            guard let latestViewModel else { return }
            file.viewModels[latestViewModel].properties.append(
                RawProperty(
                    name: text(PropertyKey.viewModelComponentName), type: type,
                    enumIndex: fields.index(PropertyKey.enumId, default: .max),
                    viewModelIndex: fields.index(PropertyKey.viewModelReferenceId, default: 0)))
        } else if let kind = TypeKey.valueKind(typeKey) {
            guard let latestInstance else { return }
            let payload = PropertyKey.propertyValue(of: kind).flatMap { fields.value($0) }
            file.instances[latestInstance].values.append(
                RawValue(
                    kind: kind, propertyIndex: fields.index(PropertyKey.viewModelPropertyId, default: 0),
                    payload: payload))
            if kind == .typed(.list) {
                latestList = (latestInstance, file.instances[latestInstance].values.count - 1)
            }
        } else if let kind = TypeKey.assetKind(typeKey) {
            file.assets.append(FileAssetSchema(name: text(PropertyKey.assetName), kind: kind))
        }
    }

    private func text(_ key: Int) -> String {
        fields.bytes(key).map { String(decoding: bytes[$0], as: UTF8.self) } ?? ""
    }

    /// Whether objects of this type carry anything the reader keeps.
    static func isKept(_ typeKey: Int) -> Bool {
        switch typeKey {
        case TypeKey.artboard, TypeKey.stateMachine, TypeKey.viewModel, TypeKey.viewModelInstance,
            TypeKey.viewModelInstanceListItem, TypeKey.dataEnum, TypeKey.dataEnumCustom,
            TypeKey.dataEnumSystem, TypeKey.dataEnumValue:
            return true
        default:
            return TypeKey.propertyType(typeKey) != nil || TypeKey.valueKind(typeKey) != nil
                || TypeKey.assetKind(typeKey) != nil
        }
    }
}
