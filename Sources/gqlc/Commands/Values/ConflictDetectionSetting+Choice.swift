import GQLCore

extension ConflictDetectionSetting: Choice {}
