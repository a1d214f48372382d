// A TypeScript program using the package by its name, as a project that installed it would:
// it must compile (`tsc -p clients/js/test/typescript`, .ci/web-tests.sh) against the declaration
// files generated from the JSDoc (types/*.d.ts) through package.json's `exports`. The
// lines marked to expect an error fail the compilation if a type turns into `any`.
import {
  RiveSync, RiveSyncError, Target, ViewModelInstance, joinPath, origin, type Ack, type ConnectOptions, type ConnectionState,
} from 'rivesync';
import { Replica, escapeName } from 'rivesync/replica.js';
import { bindRiveViewModelInstance, daemonRunsStateMachine } from 'rivesync/rive-adapter.js';

export async function run(url: string, WebSocket: unknown): Promise<string> {
  const options: ConnectOptions = { WebSocket, client: 'typescript consumer', maxBackoffMs: 1000 };
  const client: RiveSync = await RiveSync.connect(url, options);
  const state: ConnectionState = client.state;
  // @ts-expect-error a URL is a string
  void RiveSync.connect(7420);
  // @ts-expect-error not a connection state
  const wrong: ConnectionState = 'half-open';
  void wrong;
  const character: Target = await client.subscribe('character');
  const mood: number = character.viewModelInstance.number('mood').value;
  const digest: string = await character.digest();
  for await (const name of character.valueStream(joinPath({ slot: 'Theme' }, 'name'))) {
    void name;
    break;
  }
  const advanced: { seq: number; settled: boolean } = await character.advance(0);
  void advanced;
  const ack: Ack = await character.viewModelInstance.number('mood').set(3);
  const seq: number = ack.seq;
  // @ts-expect-error a path is a string
  void character.set(3, 4);
  // @ts-expect-error an ack has no value
  void ack.value;
  const lobby = await client.subscribe('lobby');
  const first: ViewModelInstance | null = lobby.viewModelInstance.list('players').instanceAt(0);
  const firstName: string | undefined = first?.string('name').value;
  const guest = await client.createInstance('demo', { viewModel: 'Player', name: 'Guest' });
  const appended: Promise<Ack> = lobby.viewModelInstance.list('players').addInstance(guest);
  void appended;
  const who: 'stateMachine' | 'command' = origin({ by: 'stateMachine' });
  const binding: { stop: () => void } = bindRiveViewModelInstance(character.viewModelInstance, {}, {
    onError: (error: Error) => console.warn(error.message),
    forwardRiveChanges: daemonRunsStateMachine(character),
  });
  binding.stop();
  try {
    await character.set('mood', 'not a number');
  } catch (error) {
    if (error instanceof RiveSyncError) return error.code;
  }
  client.close();
  return [state, mood, digest, seq, firstName, who, escapeName('a/b'), typeof Replica].join(' ');
}
