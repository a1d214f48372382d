import RiveSyncVersion

/// What `rivesyncd --generate-config` prints: a starting configuration, valid as it is
/// (`--check-config` accepts it), that names every top-level key with its default and what
/// it does in `//` comment lines (`ConfigurationComments`); rivesyncd.conf(5) has the rest.
public enum GeneratedConfiguration {
    /// The configuration's text.
    public static var text: String {
        """
        // rivesyncd configuration (rivesyncd.conf(5)), written by rivesyncd \(RiveSyncVersion.current) --generate-config.
        // Lines starting with // are comments. Check the file with: rivesyncd --check-config FILE
        // Every key outside lists can also be set by a RIVESYNC_* environment variable named after
        // its key path (RIVESYNC_LISTEN_PORT, RIVESYNC_AUTH_TOKENS_FILE): file < environment < flags.
        {
          // Where clients connect (ws://HOST:PORT/). "sharePort": true lets cluster nodes on one
          // machine share the port. Add "tls": {"certificate": "cert.pem", "key": "key.pem"} for wss://.
          "listen": { "host": "127.0.0.1", "port": 7420 },
          "workers": 2,
          // Network threads, each serving its share of the connections (1: one serves them all).
          "transportThreads": 1,

          // Journal and snapshots, so that acknowledged changes survive a restart. Without it,
          // state lives in memory only. Relative paths are relative to this file.
          // "stateDirectory": "/var/lib/rivesyncd",
          "durability": "always",
          "snapshotEvery": 10000,

          // The Rive files (.riv) or JSON schemas to load, each under a name:
          //   { "name": "game", "path": "game.riv" }
          "files": [],
          // View model instances to create and publish under a name (e.g. a global Theme):
          //   { "name": "theme", "file": "game", "viewModel": "Theme", "instance": "Dark" }
          "instances": [],
          // State machines to run, bound to published instances for their global view models:
          //   { "name": "main", "file": "game", "artboard": "Main", "stateMachine": "State Machine 1",
          //     "globals": { "Theme": "theme" }, "mode": "auto", "rate": 60 }
          "stateMachines": [],
          "defaultRate": 60,
          "allowFileUploads": false,
          "authors": true,

          // Who may connect. For tokens, create a tokens file with rivesyncd --generate-token and
          // add "tokensFile": "tokens.json"; "allowAnonymous" is false, true or "loopback".
          "auth": { "allowAnonymous": "loopback" },

          // The inspector (/) and preview pages on the daemon's port.
          "inspector": { "enabled": false, "readOnly": true },

          "logLevel": "info",
          // "text" (level=info msg=...) or "json" (one JSON object a line).
          "logFormat": "text",
          "metrics": { "maxTargetLabels": 100 },

          // Every limit has a safe default (rivesyncd.conf(5), LIMITS), e.g.:
          //   "limits": { "maxConnections": 10000, "maxMessageBytes": 1048576 },
          // A node of a cluster (protocol/CLUSTER.md) names its Redis:
          //   "cluster": { "redis": "redis://127.0.0.1:6379/0" },
          "limits": {}
        }

        """
    }
}
