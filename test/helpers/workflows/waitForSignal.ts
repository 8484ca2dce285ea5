import { condition, defineSignal, setHandler } from '@temporalio/workflow';

export const releaseSignal = defineSignal<[string]>('release');

/** Parks until signalled; used to check that workflow state survives a server restart. */
export async function waitForSignalWorkflow(): Promise<string> {
  let value: string | undefined;
  setHandler(releaseSignal, (v) => {
    value = v;
  });
  await condition(() => value !== undefined);
  return value!;
}
