// Placeholder demo, replaced by the guided tour once the examples land.
import { SwitchboardError } from '@switchboard/core';

console.log('Switchboard core loaded:', typeof SwitchboardError === 'function');
