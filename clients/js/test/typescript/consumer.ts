// A TypeScript program using the package by its name, as a project that installed it would:
// it must compile (`tsc -p clients/js/test/typescript`, .ci/web-tests.sh) against the declaration
// files generated from the JSDoc (types/*.d.ts) through package.json's `exports`. The
// lines marked to expect an error fail the compilation if a type turns into `any`.
import {
  RiveSync, RiveSyncError, Target, ViewModelInstance, joinPath, origin, type Ack, type ConnectOptions, type ConnectionState,
} from 'rivesync';
import {
  Replica, escapeName, formatColor, parseColor, unescapeName, type Batch, type FileSchema, type PropertySchema, type Snapshot,
} from 'rivesync/replica.js';
import {
  bindRiveViewModelInstance, daemonRunsStateMachine, type BindOptions, type RiveViewModelInstance,
} from 'rivesync/rive-adapter.js';

/** A Rive runtime view model instance without properties: what a test stands in for Rive with. */
function emptyRiveInstance(): RiveViewModelInstance {
  const none = () => null;
  return {
    number: none, string: none, boolean: none, enum: none, color: none, trigger: none, image: none, artboard: none,
    viewModel: none, replaceViewModel: () => {}, list: none,
  };
}

/** A replica of a one-instance target, kept by its batches, and the path helpers. */
export async function replicate(): Promise<string> {
  const schema: FileSchema = { viewModels: [{ name: 'Dot', properties: [{ name: 'r', type: 'number' }] }] };
  const snapshot: Snapshot = {
    target: 'dots', seq: 0, bindings: [{ slot: 'main', instance: 1 }], instances: [{ id: 1, viewModel: 'Dot', name: '', values: { r: 0 } }],
  };
  const replica = new Replica(snapshot, schema);
  const batch: Batch = { target: 'dots', seq: 1, effects: [{ op: 'set', instance: 1, property: 'r', value: 2 }] };
  replica.apply(batch);
  // @ts-expect-error an effect has an op
  replica.apply({ target: 'dots', seq: 2, effects: [{ instance: 1 }] });
  // @ts-expect-error a batch has a seq
  replica.apply({ target: 'dots', effects: [] });
  const radius: PropertySchema | undefined = replica.property('Dot', 'r');
  const reachable: number[] = replica.closure([1]);
  const bound: number | null = replica.instanceIn('main');
  // @ts-expect-error an instance id is a number
  const boundName: string | null = replica.instanceIn('main');
  const modes: string[] = replica.enumValues('Mode');
  const unescaped: string | null = unescapeName('a~1b');
  // @ts-expect-error unescapeName gives null for a bad escape
  const mustBeText: string = unescapeName('a~2');
  const argb: number | null = parseColor('#FF000000');
  // @ts-expect-error parseColor gives null for what is not a colour
  const mustBeColor: number = parseColor('red');
  const hex: string = formatColor(argb ?? 0);
  // @ts-expect-error an ARGB colour is a number
  void formatColor('#FF000000');
  const bytes: Uint8Array = replica.canonicalBytes();
  const digest: string = await replica.digest();
  return [radius?.type, reachable, bound, boundName, modes, unescaped, mustBeText, mustBeColor, hex, bytes.length, digest].join(' ');
}

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
  const rive = emptyRiveInstance();
  const bindOptions: BindOptions = {
    createInstance: () => emptyRiveInstance(),
    image: (asset) => asset?.id,
    onError: (error: Error) => console.warn(error.message),
    forwardRiveChanges: daemonRunsStateMachine(character),
  };
  const binding: { stop: () => void } = bindRiveViewModelInstance(character.viewModelInstance, rive, bindOptions);
  binding.stop();
  // @ts-expect-error a Rive instance has an accessor per property type
  void bindRiveViewModelInstance(character.viewModelInstance, {});
  // @ts-expect-error createInstance makes a Rive instance
  const wrongOptions: BindOptions = { createInstance: (name: string) => name };
  void wrongOptions;
  const riveMood: number | undefined = rive.number('mood')?.value;
  // @ts-expect-error a Rive number property's value is a number
  const riveMoodText: string | undefined = rive.number('mood')?.value;
  void [riveMood, riveMoodText];
  try {
    await character.set('mood', 'not a number');
  } catch (error) {
    if (error instanceof RiveSyncError) return error.code;
  }
  client.close();
  return [state, mood, digest, seq, firstName, who, escapeName('a/b'), typeof Replica].join(' ');
}
