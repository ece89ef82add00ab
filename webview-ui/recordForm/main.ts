// The create-record form panel (view type portal.recordForm): asks the host for the app's columns when the
// page loads, and sends the checked values back.
import type { FormToHostMessage, HostToFormMessage } from '../../src/shared/protocol';
import { channel } from '../common/vscodeApi';
import { registerToolkit } from '../components/toolkit';
import '../components/panel.css';
import './recordForm.css';
import { RecordForm, type FormState } from './form';

registerToolkit();
const host = channel<HostToFormMessage, FormToHostMessage, FormState>('form/');
const root = document.getElementById('root') ?? document.body;
const form = new RecordForm(root, {
  create: (data, draft) => host.post({ type: 'form/create', data, draft }),
  openRecord: (recordId) => host.post({ type: 'openRecord', recordId }),
  saveState: (state) => host.saveState(state),
});

host.onMessage((message) => {
  switch (message.type) {
    case 'form/init':
      host.keep(message.restore, message.pageState);
      form.render(message, host.state());
      break;
    case 'form/loadFailed':
      form.showLoadFailure(message.message, () => host.post({ type: 'retry' }));
      break;
    case 'form/created':
      form.created(message);
      break;
    case 'form/failed':
      form.failed(message);
      break;
  }
});
host.post({ type: 'ready' });
