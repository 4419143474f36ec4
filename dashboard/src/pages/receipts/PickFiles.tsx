import { useRef } from "react";

interface Props {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  multiple?: boolean;
}

/** Two ways in on a phone: the camera (capture) and the photo library / files (images and PDFs). */
export function PickFiles({ onFiles, disabled, multiple }: Props) {
  const camera = useRef<HTMLInputElement>(null);
  const files = useRef<HTMLInputElement>(null);
  const take = (list: FileList | null) => {
    if (list?.length) onFiles(Array.from(list));
  };
  return (
    <span className="receipt-actions">
      <button
        type="button"
        className="btn btn-primary btn-small"
        disabled={disabled}
        onClick={() => camera.current?.click()}
      >
        Take photo
      </button>
      <button
        type="button"
        className="btn btn-small"
        disabled={disabled}
        onClick={() => files.current?.click()}
      >
        Choose file
      </button>
      <input
        ref={camera}
        className="visually-hidden-input"
        type="file"
        accept="image/*"
        capture="environment"
        tabIndex={-1}
        aria-label="Take a photo of the receipt"
        data-testid="receipt-camera"
        onChange={(e) => {
          take(e.target.files);
          e.target.value = "";
        }}
      />
      <input
        ref={files}
        className="visually-hidden-input"
        type="file"
        accept="image/*,.heic,.heif,application/pdf"
        multiple={multiple}
        tabIndex={-1}
        aria-label="Choose receipt files"
        data-testid="receipt-file"
        onChange={(e) => {
          take(e.target.files);
          e.target.value = "";
        }}
      />
    </span>
  );
}
