import { memo, useRef, useState } from 'react';
import { Button, Upload } from 'antd';
import type { UploadFile, UploadProps } from 'antd';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import UploadOutlined from '@ant-design/icons/es/icons/UploadOutlined';
import { uploadFile } from '../../api/shell.ts';
import { useFT } from '../form/i18n.ts';
import type { EditorProps } from './types.ts';
import {
  ATTACHMENT_TYPES,
  IMAGE_TYPES,
  MAX_SIZE_KB,
  asFiles,
  checkCount,
  checkFile,
  dimensionMessage,
  imageSize,
  readImageSize,
  sizeText,
  type UploadedFile,
} from './uploadRules.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

const UPLOAD_ENDPOINT = '/api/blade-resource/oss/endpoint/put-file';

/** Sends one file through the shell's client; the caller shows 文件上传成功 / 文件上传失败!. */
async function send(file: File): Promise<UploadedFile> {
  const saved = await uploadFile(file, undefined, true);
  return {
    link: saved.link,
    domain: saved.domain,
    name: saved.name,
    originalName: saved.originalName ?? file.name,
    attachId: saved.attachId,
  };
}

/**
 * Attachments: the value is a list of {link, domain, name, originalName, attachId}; each file is
 * checked for type, size and the dialog's count rule before it is sent.
 */
export const UploadEditor = memo(function UploadEditor(props: EditorProps) {
  const { id, spec, disabled, onCommit } = props;
  const t = useFT();
  const { message } = useFeedback();
  const def = spec.def.upload;
  const files = asFiles(props.value);
  const filesRef = useRef(files);
  filesRef.current = files;
  const [uploading, setUploading] = useState<UploadFile[]>([]);
  // Files accepted but not finished: several chosen at once are counted one by one.
  const inFlight = useRef(0);
  const accept = def?.accept?.length ? def.accept : ATTACHMENT_TYPES;

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = checkCount(filesRef.current.length + inFlight.current, def) ?? checkFile(file, def, false);
    if (problem) {
      void message.warning(problem);
      return Upload.LIST_IGNORE;
    }
    inFlight.current += 1;
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file }) => {
    const raw = file as File & { uid: string };
    setUploading((list) => [...list, { uid: raw.uid, name: raw.name, status: 'uploading' }]);
    send(raw)
      .then((saved) => {
        filesRef.current = [...filesRef.current, saved];
        onCommit(filesRef.current);
        void message.success(t('upload.success'));
      })
      .catch(() => void message.error(t('upload.failed')))
      .finally(() => {
        inFlight.current -= 1;
        setUploading((list) => list.filter((item) => item.uid !== raw.uid));
      });
  };

  const fileList: UploadFile[] = [
    ...files.map((item, index) => ({
      uid: item.attachId ?? `${index}:${item.link}`,
      name: item.originalName ?? item.name ?? item.link,
      url: item.link,
      status: 'done' as const,
    })),
    ...uploading,
  ];

  return (
    <div id={id}>
      <Upload
        multiple
        fileList={fileList}
        accept={accept.map((type) => `.${type.replace(/^\./, '')}`).join(',')}
        disabled={disabled}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        showUploadList={{ showRemoveIcon: !disabled }}
        onRemove={(removed) => {
          onCommit(files.filter((item, index) => (item.attachId ?? `${index}:${item.link}`) !== removed.uid));
          return true;
        }}
      >
        {!disabled && <Button icon={<UploadOutlined />}>{t('upload.button')}</Button>}
      </Upload>
      {!disabled && (
        <div style={{ fontSize: 12, opacity: 0.65, marginTop: 4 }}>
          {t(def?.maxCount ? 'upload.hintCount' : 'upload.hint', {
            types: accept.join('/'),
            size: sizeText(def?.maxSizeKb ?? MAX_SIZE_KB),
            count: def?.maxCount ?? 0,
          })}
        </div>
      )}
    </div>
  );
});

/** One image; the value is its link. Type and exact size are checked before sending. */
export const ImageEditor = memo(function ImageEditor(props: EditorProps) {
  const { id, spec, disabled, onCommit } = props;
  const t = useFT();
  const { message } = useFeedback();
  const def = spec.def.upload;
  const [busy, setBusy] = useState(false);
  const link = typeof props.value === 'string' ? props.value : '';
  const size = imageSize(def);
  const accept = def?.accept?.length ? def.accept : IMAGE_TYPES;
  const box = size
    ? { width: Math.min(size.width, 116), height: Math.min(size.height, 116) }
    : { width: 116, height: 116 };

  const beforeUpload: UploadProps['beforeUpload'] = async (file) => {
    const problem = checkFile(file, def, true);
    if (problem) {
      void message.warning(problem);
      return Upload.LIST_IGNORE;
    }
    if (size) {
      const actual = await readImageSize(file).catch(() => undefined);
      if (!actual || actual.width !== size.width || actual.height !== size.height) {
        void message.warning(dimensionMessage(def, size));
        return Upload.LIST_IGNORE;
      }
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file }) => {
    setBusy(true);
    send(file as File)
      .then((saved) => {
        onCommit(saved.link);
        void message.success(t('upload.success'));
      })
      .catch(() => void message.error(t('upload.failed')))
      .finally(() => setBusy(false));
  };

  return (
    <div id={id}>
      <Upload
        listType="picture-card"
        maxCount={1}
        accept={accept.map((type) => `.${type.replace(/^\./, '')}`).join(',')}
        disabled={disabled}
        fileList={
          link
            ? [{ uid: link, name: link, url: link, thumbUrl: link, status: 'done' }]
            : busy
              ? [{ uid: 'busy', name: '', status: 'uploading' }]
              : []
        }
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        showUploadList={{ showRemoveIcon: !disabled, showPreviewIcon: false }}
        onRemove={() => {
          onCommit('');
          return true;
        }}
        style={box}
      >
        {!link && !busy && !disabled && (
          <div>
            <PlusOutlined />
            <div style={{ marginTop: 4, fontSize: 12 }}>{t('upload.imageButton')}</div>
          </div>
        )}
      </Upload>
    </div>
  );
});
